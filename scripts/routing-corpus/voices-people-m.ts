// Tenth batch, part m: same author as voices-people-l.ts (`layer1-s8b`). The other six families
// in this author's voices, so the new author's requests do not tilt the balance toward the three
// families of part l: coding next to data (a script or query to write is coding, the numbers to
// read are not), summaries beside extraction (condense vs pull out), writing beside chat,
// translation beside summaries of foreign text, math beside statistics, and chat, advice and
// small talk beside research. Same notation as coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const coding16: FamilyItems = {
  low: [
    'pandas: group this by region and sum revenue, one line\n\nregion,revenue\nnorth,10\nsouth,20\nnorth,5',
    'write the SQL: customers with no orders in the last 90 days (tables customers, orders(customer_id, created_at))',
    'how do I parse this JSON in python and get the list of ids?\n\n{"items":[{"id":1},{"id":2}]}',
    'excel formula to look up price by SKU from sheet2',
    'awk to print the 3rd column of a tab separated file',
    'my chart.js bars are all the same colour, how do I give each a different one?',
    'de:Wie lösche ich in Git einen Remote-Branch?',
    'es:¿cómo convierto una fecha string "2026-03-01" a Date en JavaScript sin problemas de zona horaria?',
    'pl:jak w Pythonie posortować słownik po wartościach?',
    'TypeError: Cannot read properties of undefined (reading \'map\') — data comes from useState([]) then fetch',
  ],
  medium: [
    'Write a Python script that reads all CSVs in a folder, checks each has the columns date, store, amount, and writes one merged parquet file; log the files it skips.',
    'I need a SQL query for a monthly retention cohort table from events(user_id, event_at). Postgres. Output: cohort month, months since, users.',
    'Build a small Flask endpoint that accepts a CSV upload and returns summary stats as JSON. Include validation and a test.',
    'This pandas code is slow on 2M rows, rewrite it vectorised:\n\n```python\nfor i, row in df.iterrows():\n    df.at[i, "margin"] = (row["price"] - row["cost"]) / row["price"] if row["price"] else None\n```',
    'Write a Google Apps Script that copies new rows from the "Form responses" sheet into a monthly tab and emails me a count each morning.',
    '{{log}}\n\nour nightly ETL job dies with this. find the bug and give me the fixed code\n\n{{code}}',
    'fr:écris une requête SQL qui calcule le chiffre d\'affaires cumulé par client et par mois, PostgreSQL, avec une fonction fenêtre',
    'ja:Pythonで、ログファイルからエラー行だけを抽出して件数を日別に集計するスクリプトを書いて',
    'nl:schrijf een bash-script dat elke nacht een back-up maakt van een Postgres-database en back-ups ouder dan 14 dagen verwijdert',
    { sys: 'You are a coding assistant in a data team\'s notebook. Return runnable code with short comments.', turns: 'plot weekly active users from the events dataframe (columns user_id, ts) with a 4-week rolling average' },
  ],
  high: [
    'Design and write the ingestion service for our IoT sensors: HTTP and MQTT inputs, schema validation, deduplication, batching into ClickHouse, backpressure, metrics, and tests. Go or Rust, your choice, explain it.',
    'Here is our analytics pipeline code. Refactor it into testable stages with dependency injection, add retries and idempotency, and write the tests.\n\n{{bigcode}}',
    'Plan and implement the migration of our reporting queries from MySQL to BigQuery: rewrite the queries below, handle the dialect differences, and add a check that compares the results of old and new.\n\n{{bigcode}}',
    'de:Entwirf und implementiere eine Bibliothek in TypeScript, die CSV-Dateien streamend validiert (Schema, Typen, Pflichtfelder), Fehler mit Zeilennummer meldet und große Dateien ohne Speicherprobleme verarbeitet, mit Tests',
  ],
};

export const writing16: FamilyItems = {
  low: [
    'a one-line out of office for the holidays, friendly',
    'caption for a photo of our team at the charity run',
    'rewrite this to sound less harsh: "You missed the deadline again and this is not acceptable."',
    'write a two-sentence bio for a conference badge: I\'m a data engineer who likes trains and sourdough',
    'fr:écris un petit mot pour remercier ma voisine qui a arrosé mes plantes',
    'it:scrivi un messaggio breve per disdire l\'appuntamento dal dentista di domani',
    'tr:müşteriye gecikme için kısa bir özür mesajı yaz',
  ],
  medium: [
    'Write the job ad for a part-time bookkeeper at our 12-person architecture firm. Warm tone, clear about hours and pay range (€22–26/h).',
    'Draft an email to parents announcing the school trip: date, cost, what to pack, permission slip deadline.',
    'I need a LinkedIn post announcing that our warehouse hit 1,000 days without an accident. Proud but not cheesy, under 150 words.',
    'Write a short speech (3 minutes) for my sister\'s wedding. She met her husband at a climbing gym; they both hate being the centre of attention.',
    'Rewrite our product page intro so it speaks to small clinics rather than hospitals:\n\n{{doc}}',
    'Write a cover letter for a junior analyst role. I have a biology degree, did an online SQL course, and ran the stats for my lab.',
    'es:redacta una carta de reclamación al casero porque la calefacción lleva tres semanas sin funcionar',
    'de:Schreib eine kurze Geschichte für meine Tochter (6) über einen Igel, der Angst vor dem Winter hat',
    'ru:напиши текст приглашения на открытие нашей кофейни, дружелюбно и коротко',
    { sys: 'You write newsletters for a neighbourhood association. Friendly, plain language.', turns: 'this month: street party on the 14th, new recycling bins, thanks to the volunteers who fixed the playground' },
  ],
  high: [
    'Write the full grant application narrative for our community literacy programme: need statement, objectives, activities, evaluation plan, sustainability. About 2,500 words. Notes below.\n\n{{pages}}',
    'Write a 4,000-word short story set in a night-shift warehouse, told from the point of view of the oldest picker, with a twist that recontextualises the first scene.',
    'Draft our company\'s remote-work policy: eligibility, equipment, working hours, security, expenses, performance, and how exceptions work. It must be fair to staff who cannot work remotely. Context:\n\n{{longdoc}}',
    'pt:escreve um ensaio de opinião de umas 1500 palavras sobre o impacto do turismo nos bairros históricos de Lisboa, com argumentos dos dois lados e uma conclusão própria',
  ],
};

export const math16: FamilyItems = {
  low: [
    'what\'s 17.5% of 2,340',
    'if a price goes up 20% and then down 20%, where does it end?',
    'solve 3x - 7 = 2x + 5',
    'how many ways to choose 3 people out of 10?',
    'es:¿cuánto es la derivada de x^3 · ln x?',
    'zh:一个圆的面积是50平方厘米，半径是多少？',
  ],
  medium: [
    'A loan of €15,000 at 6.5% annual interest, repaid monthly over 4 years. What is the monthly payment and the total interest? Show the steps.',
    'Prove that the sum of the first n odd numbers is n², by induction.',
    'Two trains leave cities 480 km apart at 9:00 and 9:30, going towards each other at 90 and 110 km/h. When and where do they meet? Show working.',
    'Probability that at least two of 30 people share a birthday — derive it, don\'t just give the number.',
    'Find the eigenvalues and eigenvectors of [[4,1],[2,3]] step by step.',
    'de:Berechne das Integral von x·e^(2x) von 0 bis 1 mit partieller Integration, mit allen Schritten',
    'fr:montre que la racine carrée de 3 est irrationnelle',
    'ko:등비수열의 합 공식을 유도하고, 첫째항 3, 공비 1/2일 때 무한합을 구해줘',
  ],
  high: [
    'Prove that every finite group of prime order is cyclic, then generalise: classify groups of order p² and prove your classification.',
    'Derive the closed form of the Fibonacci numbers using generating functions, prove it, and use it to show that F(n+1)/F(n) converges to the golden ratio.',
    'Show that the set of real numbers is uncountable using Cantor\'s diagonal argument, then prove that the rationals are countable and discuss why the same diagonal argument fails for them.',
    'ja:ラグランジュの未定乗数法を使って、制約 x+y+z=1 のもとで xyz の最大値を求め、二階条件も確認して、証明の各段階を説明してください',
  ],
};

export const summarization16: FamilyItems = {
  low: [
    'tl;dr of this thread please\n\n{{email}}',
    'one sentence: what is this memo asking me to do?\n\n{{doc}}',
    'boil this down for a slack message\n\n{{doc}}',
    'what\'s the gist of this clause in plain words?\n\nThe Licensee shall indemnify and hold harmless the Licensor against all claims, losses and expenses arising from the Licensee\'s use of the Software other than in accordance with this Agreement.',
    'de:Fass diese Mail in zwei Sätzen zusammen\n\n{{email}}',
    'ja:このメールの要点を一行で\n\n{{email}}',
  ],
  medium: [
    'Summarise this report for our board in half a page: what it found and what it recommends. I don\'t need the numbers listed, just the story.\n\n{{pages}}',
    'Condense these meeting notes into a short recap for people who missed it — overall, not a list of every item.\n\n{{pages}}',
    'Here are 20 customer reviews. Summarise what people like and dislike overall, in a paragraph each.\n\n{{pages}}',
    'Summarise the argument of this paper\'s introduction and discussion for a non-specialist, 200 words.\n\n{{pages}}',
    'I\'m a paralegal — give me a plain-English summary of this contract section by section, no more than two lines each.\n\n{{pages}}',
    'Summarise this Spanish article in English, a short paragraph (no need to translate it fully):\n\n{{fdoc}}',
    'es:resume este informe en media página para el equipo directivo\n\n{{pages}}',
    'fr:résume ce fil de discussion : qui veut quoi et où on en est\n\n{{email}}\n\n{{email}}',
    'ko:이 보고서를 다섯 문장으로 요약해줘\n\n{{pages}}',
    { sys: 'You write the daily digest for a newsroom: summarise the pasted wire stories in 3 lines each.', turns: '{{pages}}' },
  ],
  high: [
    'Below are all the consultation responses we received (about 80). Summarise them for the ministry: main themes, how common each is, where respondents disagree, and notable minority views. About three pages.\n\n{{longdoc}}',
    'Summarise this entire due-diligence report into a two-page memo for the investment committee, keeping the structure of risks and their severity.\n\n{{longdoc}}',
    'de:Fasse den gesamten Jahresbericht kapitelweise zusammen und schreibe eine einseitige Gesamtzusammenfassung davor\n\n{{longdoc}}',
    'zh:请把下面这份很长的调研报告按章节总结，并在开头写一段整体摘要\n\n{{longdoc}}',
  ],
};

export const translation16: FamilyItems = {
  low: [
    'how do you say "the invoice is attached" in Polish?',
    'translate to spanish: please keep the gate closed, the dog gets out',
    'what does "Feierabend" mean, translated properly?',
    'fr:traduis en anglais : « Nous restons à votre disposition pour toute question. »',
    'ja:「在庫切れ」を英語で自然に言うと？',
    'it:traduci in tedesco: il negozio resta chiuso per ferie fino al 20 agosto',
  ],
  medium: [
    'Translate this customer email into English, keep the polite tone:\n\n{{fdoc}}',
    'Translate our returns policy into French and German. Keep the headings.\n\n{{doc}}',
    'Please translate this job ad into Portuguese (Portugal, not Brazil):\n\n{{doc}}',
    'Translate the following into Japanese for our Tokyo partner, formal register:\n\n{{email}}',
    'de:Übersetze diesen Text ins Englische, möglichst nah am Original:\n\n{{fdoc}}',
    'es:traduce al inglés este contrato de alquiler, sin resumir nada\n\n{{fdoc}}',
    { sys: 'You are a translation engine. Translate the user text into Dutch. Output only the translation.', turns: '{{doc}}' },
  ],
  high: [
    'Translate this whole technical manual into German, keeping the formatting, the warnings and consistent terminology (make a glossary of the terms you chose at the end).\n\n{{longdoc}}',
    'Translate the following chapter of a novel from French into English, literary quality, preserving the narrator\'s voice and the wordplay where possible; add translator\'s notes where it cannot be preserved.\n\n{{longdoc}}',
    'zh:把这份完整的用户协议翻译成英文，法律用语要准确，保留条款编号\n\n{{longdoc}}',
  ],
};

export const conversation16: FamilyItems = {
  low: [
    'morning! rough night, the baby was up four times',
    'thanks, that actually helped a lot',
    'do you like puns? tell me your best one',
    'what should I cook tonight, I have eggs, spinach and some feta',
    'I passed my driving test!!',
    'de:Na, wie geht\'s dir heute?',
    'es:estoy aburrido, cuéntame algo curioso',
    'pl:dzięki za pomoc wczoraj, wszystko działa',
    'tr:bugün çok yorgunum, moral ver biraz',
  ],
  medium: [
    'I\'m nervous about my first week managing a team of people who used to be my peers. Any advice on how to handle it?',
    'My flatmate never does the dishes and I hate confrontation. How should I bring it up?',
    'Can we just talk for a bit? I got rejected from the job I really wanted and I feel stupid for getting my hopes up.',
    'I\'m thinking about quitting my PhD in the third year. Not looking for studies, just want to think it through with someone.',
    'What would you do with a free Saturday in Porto if you only had 500 m of walking in you?',
    ['I started running last month.', 'That is great! How is it going so far?', 'my knees hurt a bit and I get bored, what keeps people going?'],
    'fr:j\'ai du mal à dire non à mon chef, tu as des conseils ?',
    'ja:最近やる気が出ないんだけど、どうしたらいいと思う？',
    { sys: 'You are Pip, a friendly companion in a language-learning app. Chat casually in English and keep replies short.', turns: 'hi pip! today I ate a very big pizza and now I am sleeping on the sofa haha' },
  ],
  high: [
    'I\'ve been offered a job abroad with double the salary, but my partner would have to give up their career here and my parents are getting older. Help me think through it properly — my values, what I might regret, what questions I haven\'t asked myself.',
    'My co-founder and I disagree about everything lately: hiring, fundraising, even product direction. I want to talk through how we got here and whether the partnership can be saved, step by step.',
    'de:Ich überlege, mit 45 noch einmal etwas völlig Neues anzufangen und Pflegefachkraft zu werden. Lass uns das gründlich durchsprechen: Finanzen, Familie, was mich wirklich antreibt, und was passiert, wenn es nicht klappt.',
  ],
};
