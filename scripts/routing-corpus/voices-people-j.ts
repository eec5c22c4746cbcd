// Ninth batch, second part: same author as voices-people-i.ts (`layer1-s8`). The three-author
// cross-validation after part i still confused summarization with extraction and translation
// (a foreign document to condense is not a translation job), data-analysis with coding (numbers
// to interpret that arrive beside SQL or pandas), writing with coding, conversation and research,
// and research with conversation and math. Requests on those borders, in other people's words:
// product managers, academics, support agents, analysts, students, people on their phones.
import type { FamilyItems } from './types.ts';

export const summarization14: FamilyItems = {
  low: [
    'This article is in German and I only need the gist in English, two sentences:\n\n{{fdoc}}',
    'what\'s the main point here? don\'t translate it all, just tell me in english\n\n{{fdoc}}',
    'boil this down to one bullet\n\n{{doc}}',
    'short version?\n\n{{email}}',
    'ELI5 this paragraph in one sentence\n\n{{doc}}',
    'sum up the customer\'s complaint in a line for the ticket title\n\n{{email}}',
    'sv:sammanfatta kort\n\n{{doc}}',
    'ko:한 줄 요약\n\n{{doc}}',
    'ru:в двух словах, о чём это письмо?\n\n{{email}}',
    'pt:resume em uma frase\n\n{{doc}}',
  ],
  medium: [
    'Summarize this foreign-language report in English, about 200 words; I don\'t need a translation, just what it says:\n\n{{fdoc}}\n\n{{fdoc}}',
    'Give me a recap of this support conversation for the handover to the next shift: problem, what was tried, current status.\n\n{{email}}\n\n{{email}}',
    'Shorten this to about a third of its length, keeping the argument intact:\n\n{{pages}}',
    'Write the "Summary" section of the ticket from this incident log and timeline:\n\n{{log}}\n\n{{doc}}',
    'Can you make study notes from this chapter? Main ideas in a few bullets each.\n\n{{pages}}',
    'Outline this article: the main sections and a one-line summary of each.\n\n{{pages}}',
    'Podcast transcript below. Give me show notes: a paragraph summary and the topics with rough order.\n\n{{pages}}',
    'What are the main arguments in this op-ed, in a neutral summary of about 150 words?\n\n{{pages}}',
    { sys: 'You summarise customer calls for the CRM: 3–5 sentences, neutral, no speculation.', turns: '{{pages}}' },
    'it:fammi un riassunto di questo verbale, con decisioni e prossimi passi\n\n{{pages}}',
    'zh:帮我把这篇文章缩写成300字左右的摘要\n\n{{pages}}',
    'tr:bu raporun yönetici özetini çıkar, yarım sayfa\n\n{{pages}}',
    'nl:maak een samenvatting van deze notulen met de besluiten en actiepunten\n\n{{pages}}',
  ],
  high: [
    'Here are all the interview transcripts from our user research (12 people). Summarise them: overall picture in a page, then a short summary per participant.\n\n{{longdoc}}',
    'Produce a faithful condensed edition of this manual, about a tenth of the length, keeping the structure and every warning.\n\n{{longdoc}}',
    'These are the minutes of a year of board meetings. Summarise the year: what was decided, what changed course, what is still open.\n\n{{longdoc}}',
    'Summarize this long foreign-language dossier in English, section by section, with a one-page overview first:\n\n{{longdoc}}\n\n{{fdoc}}',
    'es:resume todo este informe por capítulos y añade un resumen ejecutivo de una página al principio\n\n{{longdoc}}',
    'ja:この長い報告書全体を章ごとに要約し、最初に全体の要旨を一ページでまとめてください\n\n{{longdoc}}',
  ],
};

export const extraction14: FamilyItems = {
  low: [
    'what time does the flight leave? just the time\n\n{{email}}',
    'grab the tracking number from this\n\n{{email}}',
    'which company sent this invoice?\n\n{{email}}',
    'es:¿cuál es el número de pedido?\n\n{{email}}',
  ],
  medium: [
    'Go through these minutes and list every decision verbatim, numbered. Nothing else.\n\n{{pages}}',
    'Make a table of every meeting mentioned in this thread: date, time, place, attendees.\n\n{{email}}\n\n{{email}}',
    'Extract the key figures (revenue, margin, headcount, growth) from this report into JSON.\n\n{{pages}} #json',
    'Find each question the customer asked in this chat log and list them.\n\n{{pages}}',
    'pull out every URL and what it links to\n\n{{pages}}',
    'de:Liste alle genannten Fristen mit Datum und zuständiger Person auf\n\n{{pages}}',
    { sys: 'Output CSV only: name,company,role,email. One row per person found.', turns: '{{pages}}' },
  ],
  high: [
    'From this year of support tickets, extract every bug report: product area, version, symptom, reporter, date, into one table; merge duplicates.\n\n{{longdoc}}',
    'Parse all these CVs into a structured dataset: name, education, employers with dates, skills, languages.\n\n{{longdoc}}',
  ],
};

export const translation14: FamilyItems = {
  low: [
    'what does "Feierabend" mean in English?',
    'how do you say "I\'m running late" in Italian?',
    'fr:comment on dit « rétroplanning » en anglais ?',
  ],
  medium: [
    'Translate this article into English in full, keep paragraphs:\n\n{{fdoc}}',
    'Translate the following message to Spanish for our customer in Mexico, friendly register:\n\n{{email}}',
    'Put this into simple English, sentence by sentence — it\'s a letter from the German tax office:\n\n{{fdoc}}',
    'ja:次の文章を英語に翻訳してください\n\n{{doc}}',
  ],
  high: [
    'Translate this whole contract into French with legal terminology, keep clause numbering, and list terms with no exact equivalent:\n\n{{longdoc}}',
  ],
};

export const dataAnalysis14: FamilyItems = {
  low: [
    'Ran this query, got the table below. Which region grew fastest?\n\n{{csv}}',
    'df.describe() output below — anything off?\n\n{{csv}}',
    'pt:qual foi o mês com mais vendas?\n\n{{csv}}',
  ],
  medium: [
    'I don\'t need code. Here\'s the output of my pandas groupby; explain what it says about retention by plan.\n\n{{csv}}',
    'Our SQL report gave these numbers. Is the conversion drop real or noise? Reason it out.\n\n{{csv}}',
    'Interpret this regression output for a non-technical manager:\n\n{{csv}}',
    'Compare the two quarters in this table and explain what drove the change.\n\n{{midcsv}}',
    'zh:这是我们的销售数据，帮我分析一下哪些产品在下滑，可能的原因是什么\n\n{{midcsv}}',
    { sys: 'You are a BI copilot. Answer in business terms.', turns: 'why did margin fall in March?\n\n{{csv}}' },
  ],
  high: [
    'Full analysis of this A/B test export: check the randomisation, compute effects with confidence intervals per segment, look for novelty effects, and give a ship / no-ship recommendation. Explain, don\'t code.\n\n{{longcsv}}',
    'fr:analyse complète de ces données de ventes : tendances, saisonnalité, anomalies, segments, et recommandations\n\n{{longcsv}}',
  ],
};

export const coding14: FamilyItems = {
  low: [
    'SQL: top 5 customers by revenue last month',
    'pandas: groupby two columns and count',
    'excel formula to find duplicates in column A',
    'python one-liner to read a json file',
    '```js\nconst x = await fetch(url).json()\n```\nTypeError: fetch(...).json is not a function',
    'sv:hur vänder jag en sträng i Python?',
    'ko:자바스크립트에서 배열을 섞는 방법',
  ],
  medium: [
    'Write the SQL for monthly active users, 7-day retention and churn from an events table (user_id, ts, event).',
    'pandas pipeline: load the CSV, clean dates, dedupe on order_id, pivot revenue by month × region, export to xlsx. code only',
    'Write a GitHub README for this repo: install, usage with examples, config table, contributing.\n\n{{code}}',
    'Write docstrings and inline comments for this module:\n\n{{code}}',
    'nl:schrijf een Python-script dat elke nacht een back-up van de database maakt en oude back-ups na 30 dagen verwijdert',
  ],
  high: [
    'Build the whole analytics backend: an events schema, ingestion endpoint, aggregation jobs for DAU/retention/funnels, and a small API for the dashboard. TypeScript + Postgres, with tests.',
    'pl:napisz kompletną aplikację CLI w Go do synchronizacji plików z S3: konfiguracja, równoległe wysyłanie, wznawianie, testy',
  ],
};

export const writing14: FamilyItems = {
  low: [
    'caption for a photo of our team at the offsite',
    'one-sentence apology for the late reply',
    'it:scrivi un messaggio di auguri per il pensionamento di un collega',
  ],
  medium: [
    'Write the release notes for version 4.2 for end users (not developers): new features, fixes, in friendly language.',
    'Write a short story (500 words) about a lighthouse keeper who gets an email.',
    'Write the "About us" page for a family-run bakery, warm, 200 words.',
    'Rewrite this technical explanation for our newsletter so non-engineers enjoy it, same length:\n\n{{doc}}',
    'Write a speech for my sister\'s wedding, 3 minutes, funny but touching.',
    'pl:napisz post na bloga o tym, jak zacząć biegać, około 500 słów',
  ],
  high: [
    'Write a 20-page grant narrative for our community literacy programme: need, approach, evaluation plan, sustainability, budget justification in prose.',
  ],
};

export const research14: FamilyItems = {
  low: [
    'what\'s the current inflation rate in the eurozone?',
    'who won the Nobel prize in economics in 2019?',
    'is it true that goldfish have a 3-second memory?',
    'how many languages are spoken in India?',
    'it:quando è stata fondata l\'Università di Bologna?',
  ],
  medium: [
    'What has been published on using LLMs for code review? Main papers and what they found.',
    'Look into how other countries regulate e-scooters and compare the approaches, with sources.',
    'Is there good evidence that standing desks improve health? What do the reviews conclude?',
    'What are the main theories about why the Bronze Age collapsed? Which have the most support?',
    'Find out which cloud providers have data centres in Switzerland and what compliance certifications they hold.',
    'What\'s the history of the QWERTY layout and is the "slow typists down" story true? sources please',
    'ko:주 4일 근무제 실험 결과에 대해 조사해 주세요. 국가별로 비교해서',
    'ru:что говорят исследования о влиянии сна на память? приведи источники',
  ],
  high: [
    'Deep research: the economics of desalination — costs over time, energy, environmental impacts, case studies (Israel, Spain, Saudi Arabia, California), and where it makes sense. With sources and an honest assessment of uncertainty.',
    'Write a literature review on the effects of minimum wage increases on employment, from Card & Krueger to recent studies, organised by method, with the current consensus and disagreements.',
  ],
};

export const conversation14: FamilyItems = {
  low: [
    'good night!',
    'you\'re funny',
    'I\'m bored at work lol',
    'sv:tack, det var snällt',
    'what do you think of pineapple on pizza',
  ],
  medium: [
    'I can\'t decide whether to adopt a dog. I live alone and work hybrid. Talk me through it?',
    'How do I tell my friend I can\'t afford the trip we planned without making it awkward?',
    'es:me cuesta mucho decir que no en el trabajo, ¿algún consejo?',
    'I keep procrastinating on my side project. What helps you — I mean, what helps people?',
  ],
  high: [
    'My dad was just diagnosed with dementia and I\'m the one who lives closest. I don\'t know how to feel or where to start. Can we talk about it — the practical side and the emotional side — and help me plan the next few months?',
  ],
};

export const math14: FamilyItems = {
  low: [
    'what is 15% tip on 64.50',
    'convert 72°F to Celsius',
    'is 221 prime?',
  ],
  medium: [
    'Explain step by step how to find the eigenvalues of [[2,1],[1,2]] and check the result.',
    'If I invest 300 a month at 6% a year for 20 years, how much do I end up with? Show the formula.',
    'ko:이차방정식 x^2 - 5x + 6 = 0 을 풀고 과정을 설명해 주세요',
  ],
  high: [
    'Prove that there are infinitely many primes of the form 4k+3, then explain why the same argument fails for 4k+1 and sketch how it is proved instead.',
  ],
};
