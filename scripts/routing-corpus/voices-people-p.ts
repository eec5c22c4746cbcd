// Tenth batch, part p: same author as voices-people-l.ts (`layer1-s8b`). Research against its two
// neighbours, conversation (advice, opinions, venting) and plain questions: research is asked to
// find, check, compare or survey what is known (a lookup of a fact is research too, at low);
// asking for someone's view, comfort or a sounding board is conversation even on a weighty topic.
// Plus threads whose newest turn turns a chat into an investigation, and the reverse.
// Same notation as coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const research18: FamilyItems = {
  low: [
    'how many people live in Greenland?',
    'what\'s the boiling point of water at 3,000 m altitude?',
    'when was the first iPhone released?',
    'who won the Nobel prize in economics in 2024?',
    'which country produces the most cocoa?',
    'is it true that Napoleon was unusually short? check it',
    'fr:quelle est la langue officielle du Mozambique ?',
    'pl:ile wynosi obecnie stopa referencyjna NBP?',
    'ko:세계에서 가장 긴 강은 뭐야?',
  ],
  medium: [
    'I keep hearing that cold showers boost the immune system. What does the actual research say, and how good is it?',
    'Which countries have tried universal basic income pilots, and what did the evaluations find? Short overview with sources.',
    'What does the evidence say about whether open-plan offices reduce or increase collaboration? I need studies, not opinions.',
    'Find reviews and benchmarks of the three e-bikes below and compare what testers say about range, reliability and service.\n\nRiese & Müller Charger4, VanMoof S5, Gazelle Ultimate C380',
    'Trace the origin of the quote "Be the change you wish to see in the world" — did Gandhi actually say it? Give the sources.',
    'Survey what recent papers report about the energy use of training vs serving large language models. How do their numbers compare?',
    ['I\'m feeling anxious about my mum\'s diagnosis, she has early Parkinson\'s.', 'I am sorry to hear that. It is a lot to take in. How are you holding up?', 'ok-ish. could you look up what the current research says about exercise slowing its progression? with sources I can show her doctor'],
    { sys: 'You are the research desk of a newspaper. Verify claims against primary sources and say where each finding comes from.', turns: 'Is it true that the city\'s crime rate has doubled since 2019, as the mayoral candidate says?' },
    'de:Welche Erkenntnisse gibt es zur Wirksamkeit von Tempolimits auf Autobahnen in Bezug auf CO₂ und Unfälle? Vergleiche die Studien',
    'es:compara lo que dicen distintas fuentes sobre el coste real de vivir en Madrid frente a Barcelona en 2026',
    'ja:日本の少子化対策について、他国の政策と効果を比較した研究を調べて、出典付きでまとめて',
    'pt:que estudos existem sobre a eficácia da semana de quatro dias em Portugal? compara os resultados',
  ],
  high: [
    'Write me a structured evidence review on school smartphone bans: the studies so far (country, design, outcomes), what they find on attention, grades and bullying, the quality of each, where they conflict, and what a ministry could reasonably conclude.',
    'Investigate how the major chip-export controls since 2022 have affected the semiconductor supply chain: policies by country, company responses, trade data, expert assessments that disagree. I need a briefing with sources for a policy team.',
    'Compile the state of knowledge on long COVID: prevalence estimates and why they differ, proposed mechanisms, treatment trials and their results, and open questions. Distinguish strong from weak evidence.',
    'zh:全面调研一下全球碳捕集与封存（CCS）项目的现状：主要项目、成本、实际封存量、失败案例，以及专家之间的分歧，附来源',
  ],
};

export const conversation18: FamilyItems = {
  low: [
    'honestly I just need someone to say it\'s going to be fine',
    'guess what, my sourdough finally rose!',
    'what\'s your favourite season and why',
    'fr:salut, ça va ? moi je suis crevé',
    'ja:今日は雨でだるいね',
    'sv:hej! vad tycker du om katter?',
    'Do you think it\'s rude to leave a wedding before the cake? My train is at 9.',
    'I cold showered for a week because of some influencer. Honestly it\'s kind of nice? Anyone else you know into it? lol',
    'Help me decide between two names for our puppy: Biscuit or Juno. He\'s a chaotic little beagle.',
  ],
  medium: [
    'My mum was just diagnosed with early Parkinson\'s. I don\'t want facts right now, I just need to talk about how scared I am.',
    'What do you think makes a good friend? I\'m asking because I feel like I\'ve been a bad one lately.',
    ['I think I want to learn the piano at 40.', 'That is a lovely idea — what draws you to it?', 'my dad played. but I\'m worried I\'m too old and I\'ll embarrass myself. am I?'],
    'de:Ich bin total gestresst wegen der Arbeit und kann nicht abschalten. Hast du einen Rat für den Abend?',
    'es:mi pareja quiere mudarse al campo y yo no estoy seguro. ¿cómo lo hablamos sin pelearnos?',
  ],
  high: [
    'I\'m 34, burned out as a lawyer, and thinking about becoming a carpenter. I have a mortgage and a kid. I don\'t want statistics — I want to talk it through with you properly: what I\'d lose, what I\'m running from, and how I\'d know it\'s the right call.',
    'it:Mia sorella non mi parla da due anni dopo una lite sull\'eredità. Vorrei ragionare con te su come riavvicinarmi: cosa dirle, cosa evitare, e come gestire se mi rifiuta di nuovo.',
  ],
};
