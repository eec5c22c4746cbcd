// Tenth batch, part q: same author as voices-people-l.ts (`layer1-s8b`). Shorter and messier
// requests for the same borders: typos, no punctuation, the task only in an app's system prompt
// with the data or the text as the user turn, data pasted in an earlier turn and the question
// now; and a few coding, math and translation requests that sit next to them (a formula or a
// script to write, a probability to derive, a table to translate) so the new author's words are
// not all on one side. Same notation as coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const dataAnalysis19: FamilyItems = {
  low: [
    'whats the avg order here and is the last week below it\n\n{{csv}}',
    'biggest mover in this table?\n\n{{csv}}',
    'did returns go up or down overall\n\nmonth returns orders\njan 41 980\nfeb 38 1010\nmar 57 1105\napr 66 1090',
    { sys: 'You are a KPI bot. The user pastes a metrics table; answer with the single most important observation in one sentence.', turns: '{{csv}}' },
    'es:¿cuál es la tendencia general de estos datos? una frase\n\n{{csv}}',
    'it:c\'è un valore anomalo in questa serie? 12, 14, 13, 15, 41, 13, 12',
  ],
  medium: [
    'heres the export from our time tracking tool, which projects are eating the most hours vs what we billed? and is anyone overloaded\n\n{{midcsv}}',
    ['{{csv}}', 'Got it — this looks like monthly revenue by product line. What would you like to know?', 'which lines are growing, which are flat, and is the growth real or just one big month'],
    'compare the two suppliers on this delivery data: on-time rate, average delay, variability. who should get the next contract?\n\n{{csv}}',
    { sys: 'You are the analytics assistant of a school. Teachers paste grade tables. Explain patterns in plain words; never write code.', turns: '{{csv}}\n\nhow did the class do compared to last term, and who needs attention?' },
    'JSON from our billing API below. Which customers are paying late more often than last year, and how concentrated is the overdue amount?\n\n[{"customer":"Acme","late_2025":2,"late_2026":6,"overdue":12400},{"customer":"Borealis","late_2025":1,"late_2026":1,"overdue":0},{"customer":"Cobalt","late_2025":4,"late_2026":9,"overdue":48100},{"customer":"Dunmore","late_2025":0,"late_2026":2,"overdue":3100}]',
    'Energy readings every 15 min from our building (pasted). When is the base load, when are the peaks, and what looks wasteful?\n\n{{midcsv}}',
    'nl:hier zijn de verkoopcijfers per winkel per week, zie je patronen of uitschieters en wat zou je verklaring zijn?\n\n{{csv}}',
    'tr:bu anket sonuçlarını yorumla, hangi departmanlarda memnuniyet belirgin şekilde düşük?\n\n{{csv}}',
    'pl:przeanalizuj te dane o ruchu na stronie i powiedz, skąd spadek w ostatnim miesiącu\n\n{{csv}}',
  ],
  high: [
    { sys: 'You are a senior analyst. The user pastes raw data. Produce a full analysis: data quality issues, descriptive findings, tests where appropriate, limitations, recommendations.', turns: '{{longcsv}}' },
    'ok so this is 3 years of our shop data (orders, customers, products, discounts). do a real analysis: who are the best customers, what makes someone come back, do discounts bring new people or just subsidise regulars. numbers behind every claim\n\n{{longcsv}}',
  ],
};

export const extraction19: FamilyItems = {
  low: [
    'whats the due date on this\n\n{{email}}',
    'just the names pls\n\n{{doc}}',
    'ru:какой номер заказа в этом письме?\n\n{{email}}',
    { sys: 'Return only the sender\'s email address found in the text, or "none".', turns: '{{email}}' },
    'nl:welk bedrag moet er betaald worden volgens deze mail?\n\n{{email}}',
    'zh:这封邮件里的会议时间是几点？只要时间\n\n{{email}}',
  ],
  medium: [
    'make a table out of this: every person, their company, their phone if theres one\n\n{{pages}}',
    { sys: 'You fill CRM records. From the pasted email thread, output JSON: {"contact_name","company","email","phone","interest","budget","next_step"}; null for anything not stated.', turns: '{{email}}\n\n{{email}}' },
    ['{{pages}}', 'I have read the document. What would you like me to do with it?', 'list every date in it with the event next to it, in order'],
    'all the addresses in this letter chain, one per line, with who they belong to\n\n{{email}}\n\n{{email}}',
    'Here\'s a scanned-and-OCRed delivery note. Pull the line items into CSV: article no, description, qty, unit.\n\n{{doc}}',
    'Which clauses in this contract mention penalties? Give the clause number and the penalty amount for each.\n\n{{pages}}',
    'es:saca de estas notas de la reunión todas las tareas con su responsable y fecha, en una lista\n\n{{pages}}',
    'pt:extrai deste relatório todos os indicadores numéricos com a unidade e o ano, em tabela\n\n{{pages}}',
    'tr:bu e-postalardan müşteri adı, sipariş numarası ve tutarı tablo halinde çıkar\n\n{{email}}\n\n{{email}}',
  ],
  high: [
    { sys: 'You are a contract-analysis engine. For every contract in the input, extract parties, effective date, term, renewal, termination rights, payment terms, liability cap, governing law, and any unusual clause, as one JSON object per contract. Quote; do not paraphrase.', turns: '{{longdoc}}' },
    'pl:Z całej tej dokumentacji projektu wypisz wszystkie ryzyka, ich właścicieli, daty identyfikacji i status, w jednej pełnej tabeli — bez streszczania\n\n{{longdoc}}',
  ],
};

export const research19: FamilyItems = {
  high: [
    'Our board wants to know whether to enter the Nordic market with our payroll software. Research it properly: market size and growth, incumbents and their weaknesses, regulation per country, local buying habits, and what happened to foreign entrants before us. Cite sources.',
    'Do a systematic comparison of what the evidence says about nuclear vs offshore wind as a route to decarbonising a mid-sized European grid: costs (with their assumptions), build times, system integration, and where credible sources disagree.',
    'ru:Исследуй, что известно о влиянии удалённой работы на рынок офисной недвижимости в крупных городах Европы и США: данные, прогнозы, расхождения между источниками',
  ],
  low: [],
  medium: [],
};

export const coding17: FamilyItems = {
  low: [
    'google sheets formula: sum column D where column B is "paid" and date in column A is this month',
    'python one-liner to read a json file into a dict',
    'zh:SQL里怎么按月份分组统计订单数？',
  ],
  medium: [
    'Write a pandas function that takes the raw orders export (order_id, customer, date, amount, status) and returns a monthly summary table; add pytest tests with a tiny fixture.',
    'Script that pulls our Stripe payouts for last month via the API and writes them to a CSV with the fees split out. Node, with error handling.',
    'it:scrivi una query SQL che trova i clienti con più di tre ordini restituiti negli ultimi sei mesi, PostgreSQL',
  ],
  high: [],
};

export const math17: FamilyItems = {
  low: [
    'what is 2^10 − 3^5',
    'tr:bir üçgenin iç açıları toplamı kaç derece?',
  ],
  medium: [
    'A bag has 5 red and 7 blue balls. Draw 3 without replacement. Probability of exactly 2 red? Show the reasoning.',
    'pt:resolve o sistema: 2x + 3y = 12 e x − y = 1, passo a passo',
  ],
  high: [
    'Prove that there are infinitely many primes of the form 4k + 3, and explain why the same simple argument does not work for 4k + 1.',
  ],
};

export const translation17: FamilyItems = {
  low: [
    'english for "Rechnungsadresse" and "Lieferadresse"?',
    'ko:"감사합니다, 좋은 하루 보내세요"를 영어로',
  ],
  medium: [
    'Translate this price table into French, keep the numbers and the layout:\n\n{{csv}}',
    'Translate the product descriptions below into Italian for our web shop, keep them punchy:\n\n{{doc}}',
  ],
  high: [
    'Translate our complete employee handbook into Spanish (Spain). Keep headings and numbering, use consistent HR terminology, and list any terms you left in English and why.\n\n{{longdoc}}',
  ],
};
