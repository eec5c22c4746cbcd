// Tenth batch (session 8, a fourth author: `layer1-s8b`), part l: data-analysis, extraction and
// research in this author's own voices, for the borders the cross-author CV still confused most:
// data pasted inline (tables, CSV, JSON, logs, survey counts) with a question about what the
// numbers mean or a statistics question (analysis, not code, even when SQL or pandas is named);
// fields, entities, dates and amounts to pull out of pasted text into JSON, tables or lists
// (extraction, not summarization, even when the text is long); investigations, comparisons of
// sources, the state of a field or a market (research, not chat or a one-fact question).
// Voices: a clinic manager, a warehouse lead, a grad student, a paralegal, a recruiter, a
// journalist, a procurement officer, a founder, a teacher; some typed on a phone.
// Same notation as coding.ts, plus {sys, turns} items. Labelled by what the person wants done.
import type { FamilyItems } from './types.ts';

export const dataAnalysis16: FamilyItems = {
  low: [
    'clinic no-shows by weekday:\nMon 14\nTue 9\nWed 11\nThu 8\nFri 23\nis friday actually unusual or am I imagining it',
    '{"p50_ms": 120, "p95_ms": 480, "p99_ms": 2900, "requests": 1200000}\nis that tail something to worry about, roughly?',
    'Our A/B test: control 412 conversions of 10,000, variant 455 of 10,000. Is that a real lift?',
    'quick one — correlation between these two columns looks like 0.3, is that weak or moderate?\n\n{{csv}}',
    'which of these stores had the biggest drop month over month?\n\nstore,sep,oct\nA,1200,1150\nB,980,610\nC,1430,1390\nD,760,720',
    'mean or median for reporting these salaries? they have a couple of huge outliers\n\n{{csv}}',
    'nl:welke maand wijkt het meest af van het gemiddelde?\n\njan 410\nfeb 395\nmrt 402\napr 530\nmei 408',
    'pl:czy ta różnica między grupami jest istotna? grupa A średnia 7.1 (n=40), grupa B 6.4 (n=38), odchylenie ok. 1.5',
    'tr:bu tabloda en yüksek iade oranı hangi kategoride?\n\nkategori | satış | iade\nelektronik | 820 | 61\ngiyim | 1430 | 210\nev | 640 | 22',
    'the error rate in this log went from what to what after 14:00?\n\n{{log}}',
  ],
  medium: [
    'Warehouse pick times (minutes per order) for three shifts are below. Compare the shifts: averages, spread, anything odd, and whether the night shift is really slower.\n\nshift,order,minutes\nday,1,6.2\nday,2,5.8\nday,3,7.1\nday,4,6.0\nevening,1,6.9\nevening,2,7.4\nevening,3,6.5\nevening,4,8.8\nnight,1,9.1\nnight,2,7.9\nnight,3,12.4\nnight,4,8.2',
    'I exported our NPS survey. Break down the scores by plan and tell me where the detractors concentrate and what might explain it.\n\n{{midcsv}}',
    'Below is the output of `df.describe()` and `df.corr()` on our churn data. I don\'t need code — explain what these numbers say about who churns.\n\n{{csv}}',
    'Cohort retention table pasted below (rows = signup month, columns = months since signup). Which cohorts retain better, and is retention improving over time?\n\n{{csv}}',
    'Server metrics for the last 24h as JSON. Find the periods where latency and CPU move together and tell me what you think is going on.\n\n[{"t":"00:00","cpu":31,"p95":210},{"t":"04:00","cpu":28,"p95":190},{"t":"08:00","cpu":66,"p95":520},{"t":"12:00","cpu":71,"p95":610},{"t":"16:00","cpu":44,"p95":260},{"t":"20:00","cpu":83,"p95":1400}]',
    'This is the result of my GROUP BY query — the query is fine, I want to understand the result. Which customer segments are profitable once refunds are counted?\n\n{{csv}}',
    'Is there seasonality in these weekly sales? If yes, describe it and tell me how much of the last quarter\'s growth is just season.\n\n{{midcsv}}',
    'My thesis data: reaction times in two conditions, paired. Which test should I use, what does the result look like, and how do I report it (APA)?\n\n{{csv}}',
    'Grades for my two classes are below. Did the new homework policy make a difference? Walk me through how you would judge that from this data.\n\n{{csv}}',
    { sys: 'You are the analytics assistant inside a BI tool. The user pastes query results; interpret them in plain language, with the numbers that support each point.', turns: '{{midcsv}}\n\nwhy did gross margin dip in Q3?' },
    ['Here are our funnel numbers for last month: visits 120k, signups 4.8k, activated 2.1k, paid 610.', 'That is a 4 % visit-to-signup rate, 44 % activation and 29 % of activated users paying. What would you like to look at?', 'and this month: visits 135k, signups 4.9k, activated 2.4k, paid 590. where did we lose ground and how worried should I be?'],
    'de:Hier sind die Umsätze pro Filiale und Quartal. Welche Filialen entwickeln sich auffällig, und woran könnte das liegen?\n\n{{csv}}',
    'fr:voici les résultats de notre enquête de satisfaction (échelle 1 à 5). Analyse les écarts entre services et dis-moi lesquels sont significatifs.\n\n{{csv}}',
    'es:tengo los tiempos de entrega de los últimos tres meses, ¿ves alguna tendencia o patrón por transportista?\n\n{{midcsv}}',
    'ja:このアンケート結果を見て、年代別の満足度の違いを分析してください\n\n{{csv}}',
    'pt:analisa este extrato de vendas e diz-me quais produtos estão a perder quota\n\n{{csv}}',
  ],
  high: [
    'Two years of daily sales for 40 stores are pasted below, with promo days flagged. Estimate the promo effect per store type, separate it from seasonality and trend, say how confident you are, and recommend which promos to drop. Show the reasoning, not code.\n\n{{longcsv}}',
    'Full export of our clinical audit: patient wait times, staffing levels, day of week, referral source. I need an analysis for the board: what drives long waits, which factors interact, what the data cannot tell us, and what we should measure next.\n\n{{longcsv}}',
    'These are the raw application logs of the checkout service for a week (excerpt of the relevant lines). Reconstruct the error rate per hour and per endpoint, find what the failures have in common, and rank the likely causes by evidence.\n\n{{log}}\n\n{{log}}\n\n{{longcsv}}',
    'Survey of 3,000 employees (pasted): engagement items, team, tenure, remote or not. Do a proper analysis: which items hang together, how engagement differs by group after accounting for tenure, and which differences are big enough to act on.\n\n{{longcsv}}',
    'I have the pricing experiment results below: four price points, three regions, conversion and revenue per visitor. Work out the revenue-maximising price per region, the uncertainty around it, and whether the regions really differ or it is noise.\n\n{{longcsv}}',
    'de:Analysiere die folgenden Produktionsdaten eines Jahres: Ausschussquote je Maschine, Schicht und Material. Welche Faktoren erklären den Ausschuss, gibt es Wechselwirkungen, und was sollten wir zuerst ändern?\n\n{{longcsv}}',
    'zh:下面是我们两年的用户行为数据，请做完整的分析：留存的驱动因素、不同渠道用户的差异、以及哪些结论在统计上站得住\n\n{{longcsv}}',
  ],
};

export const extraction16: FamilyItems = {
  low: [
    'invoice number?\n\n{{email}}',
    'What is the contract end date in this clause? Just the date.\n\nThis Agreement shall commence on 1 March 2025 and continue for an initial term of twenty-four (24) months, unless terminated earlier in accordance with clause 14.',
    'grab the tracking number from this\n\nHi! Your parcel is on its way. Carrier: DPD. Tracking: 15503428817264. Expected delivery Thursday.',
    'the phone number and the email in this signature, please\n\n--\nMarta Velasco | Procurement Lead\nT +34 911 224 870 | m.velasco@ferrovial-supplies.es',
    'how much VAT was charged?\n\n{{email}}',
    'es:¿qué número de pedido aparece en este correo?\n\n{{email}}',
    'de:Nur die IBAN aus dieser Mail, bitte\n\n{{email}}',
    'ko:이 문장에서 날짜만 뽑아줘: 회의는 3월 14일 오후 2시에서 3월 21일로 연기되었습니다.',
    'Name of the candidate and years of experience from this CV header, nothing else.\n\nJONAS KERR — Senior Data Engineer — 9 years building pipelines at fintech and logistics companies.',
    'which dates are mentioned here? list them\n\n{{doc}}',
  ],
  medium: [
    'From these job ads, pull: title, company, location, salary range (if given), remote yes/no. Table please.\n\n{{doc}}\n\n{{doc}}\n\n{{email}}',
    'Turn this receipt into JSON with merchant, date, items (name, qty, price) and total.\n\nCAFÉ LUNA  14/02/2026 09:41\n2 x Flat white      7.00\n1 x Almond croissant 3.80\n1 x Orange juice    4.20\nTOTAL              15.00 EUR\nPaid: card ****2231 #json',
    'Pull every person mentioned in this article with their role or title as the article gives it. No commentary.\n\n{{pages}}',
    'I need each deadline in this contract as a row: clause number, what must happen, by when, who is responsible.\n\n{{pages}}',
    'Go through these customer emails and extract order number, product, the problem in a few words, and whether they want a refund or a replacement. One line per email.\n\n{{email}}\n\n{{email}}\n\n{{email}}',
    'From the meeting transcript, extract the decisions only, quoted as closely as possible. Not a recap.\n\n{{pages}}',
    'Parse these log lines into a table: timestamp, level, service, message.\n\n{{log}}',
    'Paralegal request: list all parties, their addresses and their roles (lessor, lessee, guarantor) from this lease.\n\n{{pages}}',
    'Extract the medications, doses and frequencies from this discharge note into JSON. Keep the wording of the doses. #json\n\nDischarge summary: patient to continue metformin 500 mg twice daily, start atorvastatin 20 mg at night, paracetamol 1 g up to four times daily as needed, stop ibuprofen.',
    { sys: 'You are an invoice-processing service. Reply only with JSON: {"supplier","invoice_no","date","net","vat","gross","currency"}.', turns: '{{email}}' },
    { sys: 'Read the text and return every monetary amount with its currency and what it refers to, one per line as "amount | currency | refers to".', turns: '{{pages}}' },
    'fr:extrais de ce compte rendu tous les noms de fournisseurs et les montants associés, sous forme de tableau\n\n{{pages}}',
    'it:dall\'email seguente estrai mittente, data, numero d\'ordine e importo in JSON #json\n\n{{email}}',
    'pt:lista todas as datas e eventos mencionados neste texto, por ordem cronológica\n\n{{pages}}',
    'ru:вытащи из этого резюме: ФИО, последние три места работы с датами, образование. Таблицей\n\n{{doc}}',
    'zh:把这几封邮件里的客户名称、订单号和金额提取出来，做成表格\n\n{{email}}\n\n{{email}}',
  ],
  high: [
    'Attached below is the full tender document (about 60 pages). Extract every requirement the supplier must meet: requirement ID if any, the requirement text verbatim, mandatory or optional, and the section. I will use this as a compliance checklist, so completeness matters more than brevity.\n\n{{longdoc}}',
    'These are 18 months of board minutes. Build a register of every resolution: date, resolution text, proposer, vote result, and any follow-up action with owner. Output as JSON lines. #json\n\n{{longdoc}}',
    'From this bundle of supplier contracts, extract for each contract: parties, start and end dates, renewal terms, notice period, liability cap, governing law. Where a field is missing say "not stated". One table.\n\n{{longdoc}}',
    'Journalist here. From the documents below, extract every claim about money (amount, currency, who paid whom, date, the sentence it comes from). I will verify each one, so do not merge or summarise them.\n\n{{longdoc}}',
    'es:Extrae de todo este expediente cada fecha, plazo y obligación con su artículo correspondiente, en una tabla completa\n\n{{longdoc}}',
    'ja:以下の全議事録から、決定事項・担当者・期限をすべて抜き出して一覧にしてください（要約は不要です）\n\n{{longdoc}}',
  ],
};

export const research16: FamilyItems = {
  low: [
    'is there any good evidence that standing desks improve productivity? short answer with the main studies',
    'what do the major sources currently say about whether intermittent fasting beats plain calorie restriction?',
    'has anyone published a benchmark comparing DuckDB and ClickHouse on small datasets? point me to it',
    'quick check: is the "we only use 10% of our brain" claim debunked, and by whom?',
    'which EU countries have a four-day work week pilot running, per recent reports?',
    'de:Gibt es Studien dazu, ob Tempo 30 in Städten die Unfallzahlen senkt? Kurz mit Quellen',
    'fr:que dit la recherche récente sur l\'efficacité des devoirs à l\'école primaire ?',
    'sv:finns det forskning om hur distansarbete påverkar produktiviteten? kort översikt',
  ],
  medium: [
    'I\'m a clinic manager. Look into how other clinics reduced no-show rates (SMS reminders, deposits, overbooking): what worked, how big the effects were, and where the evidence comes from.',
    'Compare what three or four credible sources say about the carbon footprint of streaming video. They disagree a lot — explain why the estimates differ.',
    'Research the current options for self-hosting LLMs for a small company: main tools, hardware needed, licensing issues. Give me a sourced overview, not a tutorial.',
    'Founder question: how big is the market for B2B invoice automation in Europe, who are the main players, and how reliable are the published market-size numbers?',
    'What is the state of the art in battery recycling? Main methods, recovery rates, who is doing it at scale, and open problems.',
    'Investigate whether remote-first companies have higher or lower employee turnover. Find the studies and surveys, note their methods and weaknesses.',
    'Fact-check this claim from a LinkedIn post with sources: "70% of digital transformations fail." Where does the number come from and does it hold up?',
    'I teach history. What do historians currently think caused the Bronze Age collapse? Summarise the competing explanations and who argues for each.',
    'Look at the literature on spaced repetition for language learning: effect sizes, typical schedules studied, and gaps.',
    { sys: 'You are a research assistant for a procurement team. For every question, consult and compare sources, cite them, and flag weak evidence.', turns: 'What are the typical failure modes when companies switch ERP vendors, and how do the successful ones avoid them?' },
    ['We\'re thinking of moving our office to Lisbon or Valencia.', 'Both are popular with tech companies. What matters most to you?', 'dig into it for me: hiring pool for engineers, salaries, office costs, taxes for a small foreign company. compare the two with sources'],
    'es:investiga qué dicen los estudios sobre el impacto de los patinetes eléctricos compartidos en la movilidad urbana, con fuentes',
    'it:fai una ricerca sulle alternative open source a Salesforce: quali esistono, chi le usa, punti di forza e limiti secondo le recensioni',
    'pt:pesquisa o que a literatura diz sobre o efeito do salário mínimo no emprego em Portugal e no Brasil',
    'ja:リモートワークと生産性に関する最近の研究を調べて、主な結論と限界をまとめてください',
    'ko:전기차 배터리 가격 추세에 대한 최신 자료를 조사해서 정리해줘. 출처 포함',
  ],
  high: [
    'I need a literature review for my grant proposal: interventions that reduce hospital readmissions for heart failure patients. Cover the main intervention types, the strength of evidence for each (RCTs vs observational), conflicting findings, and the gaps my study could fill. About three pages with references.',
    'Do a competitive landscape of the European last-mile delivery robot market: companies, funding, pilots, regulation per country, technical approaches, and which business models seem to be working. Flag where sources conflict.',
    'Investigate the evidence on whether code review catches bugs effectively: academic studies, industry reports, what they measured, and where they disagree. I want a critical synthesis, not a list.',
    'Research and compare the regulatory regimes for crypto custody in the EU (MiCA), UK, Singapore and the US. For each: licensing, capital requirements, segregation of assets, recent enforcement. Then tell me which is most demanding and why.',
    'Below are the sources I have collected so far. Read them critically, find what is missing, and produce a state-of-the-art overview on microplastics in drinking water: measurement methods, reported levels, health evidence, and open questions.\n\n{{longdoc}}',
    'fr:fais un état de l\'art complet sur les méthodes de détection de fraude dans les paiements en ligne : approches, jeux de données publics, résultats rapportés, limites, tendances récentes',
    'de:Recherchiere umfassend, wie verschiedene Länder die Grundsteuer reformiert haben, vergleiche die Modelle und bewerte die Evidenz zu ihren Wirkungen',
  ],
};
