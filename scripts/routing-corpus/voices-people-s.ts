// Tenth batch, part s: same author as voices-people-l.ts (`layer1-s8b`). The other side of the
// borders of parts l–r, so the new words do not pull everything one way: code to write about
// data (the numbers are input to a program, not a question), summaries of material that also
// holds fields and figures (condense, do not list), writing that starts from pasted notes or a
// feeling (a text to produce, not a chat and not a recap), and translation of data-bearing text.
// Same notation as coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const coding18: FamilyItems = {
  low: [
    'regex to pull all amounts like €1.234,56 out of a string',
    'how do I read this JSON with jq and print name and total per line?\n\n[{"name":"a","total":3},{"name":"b","total":5}]',
    'SQL: percentage of each category of the total, in one query',
    'pandas: my dates come in as strings "14/02/2026", how do I parse them day-first?',
    'fr:comment faire un graphique en barres empilées avec matplotlib ?',
    'ru:как в SQL посчитать скользящее среднее за 7 дней?',
  ],
  medium: [
    'Write a parser for the bank statement lines below that returns date, description, amount and currency as a list of dicts, with tests for the odd cases (negative amounts, thousands separators).\n\n14.02.2026  KARTENZAHLUNG REWE 2231     -23,45 EUR\n15.02.2026  GEHALT FEBRUAR           3.210,00 EUR',
    'I need a script that extracts all email addresses and phone numbers from a folder of .txt files and writes a CSV. Python, handle encoding errors.',
    'Build the SQL for a dashboard tile: weekly active users, new vs returning, last 12 weeks, from events(user_id, occurred_at, first_seen_at).',
    'Write an R function that runs a t-test for every numeric column between two groups and returns a tidy table with adjusted p-values.',
    'My script that summarises the logs crashes on empty files — fix it and add a test:\n\n{{code}}',
    { sys: 'You are a senior Python reviewer. Suggest concrete code changes.', turns: 'this is our CSV import, it gets slow and uses a lot of memory on big files\n\n{{code}}' },
    'es:escribe una función en JavaScript que convierta un CSV con cabecera en un array de objetos, respetando comillas y comas dentro de campos, con tests',
  ],
  high: [
    'Design and build a small document-extraction service: upload PDFs, OCR when needed, extract invoice fields with rules plus a fallback model call, a review queue for low-confidence fields, and an API. Architecture first, then the code for the core pipeline with tests.',
    'ja:大量のCSVを取り込んで検証・集計し、結果をダッシュボード用のAPIで返すバックエンドを設計して実装してください。ストリーミング処理、エラー行の扱い、テストを含めて',
  ],
};

export const summarization19: FamilyItems = {
  low: [
    'sum up this invoice dispute in one line for the ticket\n\n{{email}}',
    'what\'s the bottom line of this quarterly update?\n\n{{doc}}',
    'tr:bu e-postanın özeti ne, tek cümle\n\n{{email}}',
  ],
  medium: [
    'Summarise this earnings report for our investors\' newsletter: the story of the quarter in a paragraph, not a list of figures.\n\n{{pages}}',
    'Here\'s the thread with the supplier about the late shipment. Summarise where things stand and what each side wants, a few sentences.\n\n{{email}}\n\n{{email}}\n\n{{email}}',
    'Condense this contract into a one-page plain-language summary for the client. I don\'t need every clause, just what they\'re agreeing to.\n\n{{pages}}',
    'Summarise the discussion in these comments for the design review: main opinions and where people landed.\n\n{{pages}}',
    'de:Fass diesen Prüfbericht für die Geschäftsführung auf einer halben Seite zusammen\n\n{{pages}}',
    'pl:streść tę dyskusję mailową w kilku zdaniach, kto czego chce\n\n{{email}}\n\n{{email}}',
  ],
  high: [
    'Summarise this whole audit file for the audit committee: overall conclusion, the significant findings and their severity, management\'s responses, in about two pages. Do not list every minor point.\n\n{{longdoc}}',
  ],
};

export const writing18: FamilyItems = {
  low: [
    'text to my landlord: the boiler is broken again, can someone come tomorrow',
    'write a quick message telling the team the offsite is moved to Friday',
    'a one-line apology to a friend for forgetting her birthday, not too dramatic',
    'de:schreib eine kurze Absage für eine Einladung zum Abendessen, höflich',
  ],
  medium: [
    'Use these bullet points to write the quarterly update email to our investors, confident but honest about the delayed launch:\n\n{{doc}}',
    'I feel like I\'ve been a bad friend lately. Help me write a message to my old friend Sam to reconnect — warm, not needy.',
    'Write a product description for our hand-thrown ceramic mugs (350 ml, dishwasher safe, each glaze unique). About 120 words, for the web shop.',
    'Write a toast for my team\'s farewell to a colleague who is retiring after 31 years in the warehouse. Funny but kind, 2 minutes.',
    'Rewrite this clunky paragraph from my thesis so it reads well; keep the meaning:\n\n{{doc}}',
    'fr:rédige une annonce pour louer notre appartement de vacances en Bretagne, chaleureuse, 150 mots',
    'zh:帮我写一封给客户的邮件，通知价格从下个月起上调5%，语气要诚恳',
  ],
  high: [
    'Write the first chapter (about 3,000 words) of a mystery novel set in a hospital lab, from these notes on characters and plot:\n\n{{pages}}',
  ],
};

export const translation18: FamilyItems = {
  low: [
    'translate into german: the invoice total includes VAT',
    'nl:vertaal naar het Engels: "De levering is vertraagd tot volgende week."',
  ],
  medium: [
    'Translate this invoice into English, keep every figure, date and reference exactly as it is:\n\n{{fdoc}}',
    'Translate the survey questions below into Spanish and Portuguese for our respondents, keep the numbering:\n\n{{doc}}',
    'sv:översätt det här mejlet till engelska, behåll tonen\n\n{{email}}',
  ],
  high: [],
};
