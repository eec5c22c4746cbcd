// Ninth batch, third part: same author as voices-people-i.ts (`layer1-s8`). The grouped and the
// cross-author CV after parts i and j still confused extraction with summarization (both ways),
// data-analysis with coding, writing with conversation, and translation with summarization.
// Requests on those borders: the verb decides ("list", "pull", "which" → extraction; "sum up",
// "recap", "overview" → summarization), numbers to interpret are analysis even beside code, a
// message to write is writing even when it is personal. Author: whoever wrote this part.
import type { FamilyItems } from './types.ts';

export const extraction15: FamilyItems = {
  low: [
    'who signed this?\n\n{{doc}}',
    'the amount due, nothing else\n\n{{email}}',
    'which city is the office in, according to this?\n\n{{doc}}',
    'it:qual è la data di scadenza indicata?\n\n{{email}}',
    'ja:この請求書の合計金額だけ教えて\n\n{{email}}',
  ],
  medium: [
    'list the action items from these notes, word for word, with owner if named — no summary\n\n{{pages}}',
    'Every place name in this text, with the sentence it appears in, as a table.\n\n{{pages}}',
    'Pull the risks this report mentions into a list: risk, likelihood, impact, as written.\n\n{{pages}}',
    'Which products are mentioned with a price? product | price | currency\n\n{{pages}}',
    'Fill this template from the email: Customer:, Order:, Issue:, Requested action:\n\n{{email}}',
    'zh:从这段会议记录里提取所有的待办事项和负责人，用表格\n\n{{pages}}',
    'fr:relève toutes les dates et montants cités dans ce document, sous forme de liste\n\n{{pages}}',
    { sys: 'Extract entities. Return JSON {"people":[],"organisations":[],"places":[]}.', turns: '{{pages}}' },
  ],
  high: [
    'Go through the whole archive below and extract every commitment the company made publicly: date, wording quoted exactly, topic, and whether a deadline is given. One row per commitment.\n\n{{longdoc}}',
    'de:Extrahiere aus allen folgenden Dokumenten jede Kennzahl mit Einheit, Jahr und Quelle in eine einzige Tabelle\n\n{{longdoc}}',
  ],
};

export const summarization15: FamilyItems = {
  low: [
    'sum it up for me\n\n{{doc}}',
    'what\'s the upshot of this thread?\n\n{{email}}',
    'nutshell version pls\n\n{{doc}}',
    'fr:en bref, ça dit quoi ?\n\n{{doc}}',
  ],
  medium: [
    'Recap these notes in a paragraph for people who weren\'t there.\n\n{{pages}}',
    'Give me an overview of this document: what it\'s about, its main conclusions, in under 200 words.\n\n{{pages}}',
    'Write a summary of this article in German for our German team (the article is in English):\n\n{{pages}}',
    'Make a one-page digest of these three emails and this memo.\n\n{{email}}\n\n{{email}}\n\n{{doc}}',
    'pl:napisz streszczenie tego raportu w pięciu punktach\n\n{{pages}}',
    'ru:сделай краткое содержание этой статьи, абзац\n\n{{pages}}',
  ],
  high: [
    'Read everything below (a year of project updates) and write the summary for the annual review: what happened, what went well, what didn\'t, about two pages.\n\n{{longdoc}}',
    'it:riassumi l\'intero documento sezione per sezione, con una sintesi iniziale di mezza pagina\n\n{{longdoc}}',
  ],
};

export const dataAnalysis15: FamilyItems = {
  low: [
    '```\n region | revenue\n north  | 120400\n south  |  98210\n east   | 143900\n```\nwhich region is furthest below average?',
    'from this output, what\'s the median session length?\n\n{{csv}}',
  ],
  medium: [
    'Here\'s my SQL and its result. The query is fine — what does the result tell us about weekday vs weekend orders?\n\n```sql\nSELECT dow, AVG(total) FROM orders GROUP BY dow;\n```\n\n{{csv}}',
    'I ran a logistic regression in R; coefficients below. Which factors matter and how do I explain them to the team?\n\n{{csv}}',
    'Look at these monthly numbers and tell me if the growth is slowing, with your reasoning.\n\n{{midcsv}}',
    'es:interpreta estos resultados de la encuesta: ¿qué diferencias hay entre grupos de edad?\n\n{{csv}}',
  ],
  high: [
    'Assess this marketing-mix data: estimate each channel\'s contribution, diminishing returns, and how you would reallocate the budget. I want the analysis and the reasoning, not a notebook.\n\n{{longcsv}}',
  ],
};

export const coding15: FamilyItems = {
  low: [
    'SQL to get the second highest salary',
    'pandas: fill NaN with the column mean',
    'R: how to reshape wide to long with tidyr',
  ],
  medium: [
    'Write a Python function that computes retention cohorts from an events DataFrame and a test for it.',
    'My dbt model fails with a compilation error, here it is. Fix it:\n\n{{code}}',
    'fr:écris une fonction TypeScript qui valide un IBAN avec des tests unitaires',
  ],
  high: [
    'Implement the full ETL: extract from the Stripe and HubSpot APIs, normalise into a warehouse schema, incremental loads, idempotency, and tests. Python + SQL.',
  ],
};

export const writing15: FamilyItems = {
  low: [
    'write a text to my landlord saying the heating is broken again',
    'short message to congratulate my friend on her new job',
    'es:escribe un mensaje para felicitar a mi abuela por su cumpleaños',
  ],
  medium: [
    'Write a heartfelt letter to my brother apologising for missing his wedding, about 250 words.',
    'I need to write to my team that I\'m leaving the company. Warm, 200 words, no drama.',
    'Write a message for my online dating profile, funny but honest, 120 words.',
    'de:Schreib eine Rede für den 60. Geburtstag meines Vaters, zwei Minuten, herzlich',
  ],
  high: [
    'Write a 2,500-word personal essay about moving countries at 30, for a literary magazine: concrete scenes, no clichés.',
  ],
};

export const conversation15: FamilyItems = {
  low: [
    'do you ever get tired of questions?',
    'I just got a puppy!!!',
    'zh:今天心情不太好',
  ],
  medium: [
    'Should I text my ex happy birthday? We ended on ok terms. What do you think?',
    'I\'m nervous about my first day at a new job tomorrow. Any thoughts on how to not be awkward?',
    'fr:mon meilleur ami ne répond plus à mes messages depuis un mois, je devrais m\'inquiéter ?',
  ],
  high: [
    'I\'m trying to figure out if I want kids. My partner does, I\'m unsure. Can we really dig into this — my fears, what I value, how to talk to him — over a few messages?',
  ],
};

export const translation15: FamilyItems = {
  low: [
    'translate into english: "Die Sitzung wird auf Donnerstag verschoben."',
    'zh:把“按时交付”翻译成英文',
  ],
  medium: [
    'Translate this report section into Italian exactly, not a summary — every sentence:\n\n{{doc}}',
    'Translate the email below into Japanese, business polite:\n\n{{email}}',
  ],
  high: [
    'Translate this entire user manual into Polish, keeping the structure, the warnings and a consistent glossary:\n\n{{longdoc}}',
  ],
};

export const research15: FamilyItems = {
  low: [
    'what is the deepest lake in Europe?',
    'fr:qui a écrit « L\'Étranger » et en quelle année ?',
  ],
  medium: [
    'What does the evidence say about whether open-plan offices reduce face-to-face interaction? Cite the studies.',
    'Find out how other cities financed their tram networks and compare the models.',
  ],
  high: [
    'A full research brief on lithium supply: reserves by country, extraction methods and their impacts, price history, forecasts from different sources and why they differ, with references.',
  ],
};

export const math15: FamilyItems = {
  low: [
    'what is 2^20',
    'ja:半径3の円の面積は？',
  ],
  medium: [
    'Work out the probability that in a group of 30 people two share a birthday, showing each step.',
  ],
  high: [
    'Prove the Cauchy–Schwarz inequality in an inner product space in two different ways and discuss when equality holds.',
  ],
};
