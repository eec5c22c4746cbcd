// Seventh batch, fourth part (summarization, translation, extraction, conversation): same author
// and kinds of setting as voices-people-c.ts. Same notation as coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const summarization8: FamilyItems = {
  low: [
    ['I got a long email from the landlord.', 'Paste it and I will help.', 'whats the short version\n\n{{email}}'],
    { sys: 'Summarize what the user sends in one sentence of at most 25 words.', turns: '{{doc}}' },
    '{{email}}\n\ncan you boil this down to one line',
    'Key point of this paragraph?\n\n{{doc}}',
    'de:worum geht es in diesem Text? ganz kurz bitte\n\n{{doc}}',
    'Too long, didn\'t read. Help:\n\n{{doc}}',
    'es:resume este correo en una frase\n\n{{email}}',
    'Give me a one-line preview text for this newsletter article:\n\n{{doc}}',
  ],
  medium: [
    ['I missed the meeting this morning.', 'Do you have the notes or a transcript?', 'yes here, what did I miss and is there anything I have to do?\n\n{{pages}}'],
    { sys: 'You write executive briefs. Turn the input into: situation, key facts, implications, in under 250 words.', turns: '{{pages}}' },
    'I am a nurse and I have to brief the night shift. Summarize this patient handover document into the essentials:\n\n{{pages}}',
    '{{pages}}\n\nMy grandfather asked what this article says. Can you summarize it in simple words, around 150 words?',
    'Summarize this podcast transcript into show notes: a paragraph, the main topics with timestamps if they appear, and the guests\' key claims.\n\n{{pages}}',
    'fr:résume ce rapport en une page pour le conseil d\'administration, avec les chiffres clés\n\n{{pages}}',
    'Condense the thread below into a status update I can post in Slack: what happened, where we are, next steps.\n\n{{email}}\n\n{{email}}',
    'zh:请把这篇文章总结成五个要点，每个要点一句话。\n\n{{pages}}',
  ],
  high: [
    ['I am preparing for a board meeting on Thursday.', 'What do you need?', 'all the documents for it are below. give me a briefing: a one-page overview, then a summary of each paper, and the questions I should be ready for\n\n{{longdoc}}'],
    { sys: 'You are a research summarizer for a law firm. For long documents: executive summary, section summaries with paragraph references, and open issues.', turns: '{{longdoc}}' },
    'Here are a year of my journal entries. Summarize what happened month by month and the themes that keep coming back:\n\n{{longdoc}}',
    '{{longdoc}}\n\nThis is the complete parliamentary debate. Summarize the arguments of each party, how the debate shifted, and the final outcome.',
    'de:Fasse diese gesamte Projektdokumentation zusammen: Management-Summary, Zusammenfassung pro Arbeitspaket, Risiken und offene Punkte\n\n{{longdoc}}',
    'Summarize these 30 customer interview transcripts into a research readout: top needs, pain points with how many people raised each, surprising findings, and representative quotes.\n\n{{longdoc}}',
    'ja:この長い調査報告書を、役員向けの要約（1ページ）と章ごとの要約にまとめてください。\n\n{{longdoc}}',
    'Write a study guide that summarizes this whole textbook section by section, with the key definitions and a one-paragraph summary per chapter:\n\n{{longdoc}}',
  ],
};

export const translation8: FamilyItems = {
  low: [
    ['I am travelling to Lisbon next week.', 'Exciting! Need some Portuguese?', 'yes, how do I say "the bill, please"'],
    { sys: 'Translate the user\'s text into English. Output only the translation.', turns: 'Das Paket wurde beim Nachbarn abgegeben.' },
    'whats "i love you" in russian',
    'Translate "Out of stock" into Spanish, French and German for our shop buttons.',
    'fr:traduis en anglais : "Pouvez-vous m\'envoyer la facture, s\'il vous plaît ?"',
    'In Italian: "Can we have a table for four?"',
    'ko:"감사합니다"를 영어로 어떻게 말해요?',
    'What does "Ojalá" mean in English?',
  ],
  medium: [
    ['My Japanese penfriend sent me a letter.', 'How nice! Want me to translate it?', 'yes, and then help me understand the polite phrases she used\n\n{{fdoc}}'],
    { sys: 'You are a professional translator for a travel company. Translate into natural British English, keep names and prices.', turns: '{{fdoc}}' },
    'Translate our hotel\'s welcome letter into Chinese (simplified) and Japanese:\n\n{{doc}}',
    '{{fdoc}}\n\nwhat does this say? translate into english and keep the formal tone',
    'pt:traduza para o espanhol este texto do nosso site, mantendo o tom descontraído\n\n{{doc}}',
    'Translate these customer support macros into German, using "Sie", and keep them short:\n\n{{doc}}',
    'de:übersetze diese Bedienungsanleitung ins Französische\n\n{{doc}}',
    'My mother only reads Turkish. Please translate this letter from the school into Turkish, simply:\n\n{{email}}',
  ],
  high: [
    ['We are expanding to Latin America.', 'What needs translating?', 'our full terms of service and privacy policy, into Spanish for Mexico and Portuguese for Brazil, legally precise, with a glossary and notes where local law differs\n\n{{longdoc}}'],
    { sys: 'You are a literary translator. Translate faithfully, keep the author\'s style, and add translator\'s notes for cultural references.', turns: '{{longdoc}}' },
    'Translate this whole academic article from German into English for journal submission, keeping the technical terms consistent and the citations as they are:\n\n{{longdoc}}',
    '{{longdoc}}\n\nTranslate all of this into French for our Canadian office. It is our safety manual, so consistency of terms matters more than style.',
    'es:traduce al inglés toda esta tesis doctoral, manteniendo la terminología técnica y el formato de las referencias\n\n{{longdoc}}',
    'Localize our entire e-learning course (12 modules, text below) into Italian, adapting examples and idioms to Italy and keeping the quizzes working:\n\n{{longdoc}}',
    'ru:переведите весь этот технический документ на английский, с единой терминологией и глоссарием в конце\n\n{{longdoc}}',
    'Translate the complete script of our documentary into Spanish subtitles: keep lines short enough for subtitles, preserve speaker names, and note untranslatable puns:\n\n{{longdoc}}',
  ],
};

export const extraction8: FamilyItems = {
  low: [
    ['I need to call the plumber back.', 'Do you have his details?', 'they are in this email somewhere, just give me the number\n\n{{email}}'],
    { sys: 'Return only the requested field from the user\'s text, nothing else.', turns: 'Field: invoice date\n\n{{doc}}' },
    'what\'s the deadline mentioned here\n\n{{email}}',
    'Find the flight number in this confirmation:\n\n{{email}}',
    'es:dame solo el nombre de la empresa que aparece en este texto\n\n{{doc}}',
    '{{doc}}\n\nWhich percentages appear in that text?',
    'ja:このメールから住所だけを抜き出してください。\n\n{{email}}',
    'Pick out the product names from this review: "The Orbit 3 blender is great, much better than my old Vita Pro, though the Orbit lid cracks."',
  ],
  medium: [
    ['I am cleaning up our CRM.', 'What do you have?', 'a bunch of email signatures. pull out name, title, company, phone and email for each, as a table\n\n{{email}}\n\n{{email}}'],
    { sys: 'You convert unstructured text into JSON matching this schema: {"people":[{"name":"","role":""}],"dates":[],"amounts":[]}. Output JSON only.', turns: '{{pages}}' },
    'Go through this lease and list: rent, deposit, start and end dates, notice period, who pays which utilities.\n\n{{pages}}',
    '{{pages}}\n\nFrom the report above, get every KPI with its value and the period it refers to.',
    'it:estrai da queste recensioni il nome del prodotto, il voto e il problema principale, in una tabella\n\n{{pages}}',
    'Parse these bank transaction descriptions into merchant, date, amount and category:\n\n{{csv}}',
    'de:ziehe aus diesem Lebenslauf Name, Kontaktdaten, Ausbildung und Berufserfahrung als JSON heraus #json\n\n{{doc}}',
    'List every medication, dose and frequency mentioned in this discharge letter:\n\n{{pages}}',
  ],
  high: [
    ['We are preparing for an audit.', 'What do you need from the documents?', 'from all of these supplier contracts, extract the party names, contract value, start and end date, renewal terms, liability cap and data-protection clauses, one JSON record per contract, and list what is missing #json\n\n{{longdoc}}'],
    { sys: 'You are an information extraction system for a newsroom. From long documents, extract every person, organisation, place, date and money amount, with the sentence each comes from, as JSON.', turns: '{{longdoc}}' },
    'From this whole email archive, extract every commitment anyone made (who, to whom, what, by when) and whether a later email shows it was done:\n\n{{longdoc}}',
    '{{longdoc}}\n\nBuild a structured table of every study mentioned above: authors, year, sample size, method, main result, and the page where it is described.',
    'es:de todo este expediente, extrae cada plazo legal, la parte obligada, la consecuencia del incumplimiento y la referencia del artículo, en una tabla\n\n{{longdoc}}',
    'Extract all product specifications from this catalogue into a normalised table (model, dimensions in mm, weight in kg, power in W, price), merging duplicates across sections:\n\n{{longdoc}}',
    'zh:从以下所有会议记录中提取每一项决议、负责人、截止日期和当前状态，整理成表格，并标出互相矛盾的地方。\n\n{{longdoc}}',
    'From these police incident reports, extract incident type, date, time, location, people involved and their roles, into a dataset, and resolve where the same person appears under different spellings:\n\n{{longdoc}}',
  ],
};

export const conversation8: FamilyItems = {
  low: [
    ['I just adopted a kitten!', 'Congratulations! What is its name?', 'Mochi :) she is tiny and grey'],
    { sys: 'You are Pip, a cheerful companion in a language-learning app. Chat casually.', turns: 'hi pip, I am tired today' },
    'what are you up to',
    'lol ok you win',
    'es:jaja qué gracioso eres',
    'Happy new year!',
    'ja:おはよう！今日は雨だね。',
    'I am having a great day, just wanted to tell someone',
  ],
  medium: [
    ['I have been talking to you about my new job.', 'Yes, how is it going?', 'honestly not great. my manager ignores my ideas and I am starting to dread mondays. what should I do?'],
    { sys: 'You are a supportive listener. Be warm, ask questions, do not lecture.', turns: 'I failed my driving test for the third time and I feel stupid' },
    'My roommate never cleans up and I hate conflict. How do I bring it up without ruining things?',
    'I want to get back into reading but I only scroll my phone at night. Any tips that actually work?',
    'fr:je me sens un peu perdu depuis que j\'ai fini mes études, je ne sais pas quoi faire de ma vie. tu as des conseils ?',
    'My best friend forgot my birthday and I am more hurt than I expected. Am I overreacting?',
    'pt:estou com saudade da minha família que mora longe, como lidar com isso?',
    'How do I politely stop a neighbour who talks to me for an hour every time I leave the house?',
  ],
  high: [
    ['I need to talk about something heavy.', 'I am here. Take your time.', 'my father has terminal cancer and wants to stop treatment. my siblings want him to keep fighting. I am the one who has to talk to the doctors. I do not know how to handle any of this'],
    { sys: 'You are a thoughtful life coach. Help the user think through big decisions over several turns: ask, reflect, then structure options.', turns: 'I am 34 and thinking of leaving my partner of 9 years. Nothing is terribly wrong, I just do not feel anything anymore. We own a house together and have a dog.' },
    'I found out my husband has hidden 40,000 in debt from me. We have two kids and I do not earn much. I am angry and scared. Help me think through what to do next, step by step.',
    'My son came out as gay and my religious parents, who help us with childcare, reacted badly. I want to protect him without losing my parents. How do I navigate this?',
    'ja:親の介護のために仕事を辞めるべきか迷っています。兄弟は協力してくれず、貯金も少ないです。いろいろな面から一緒に考えてもらえますか。',
    'I was passed over for promotion for the third time and I suspect it is because I am a woman. I like the company but I am exhausted. Help me think through whether to fight it, leave, or stay.',
    'es:mi pareja quiere mudarse a su país y yo tendría que dejar mi trabajo, a mis amigos y a mi madre mayor. ayúdame a pensarlo a fondo, desde todos los ángulos',
    'My teenage daughter has stopped eating properly and hides it. I am scared of saying the wrong thing. Help me plan how to talk to her and what help to look for.',
  ],
};
