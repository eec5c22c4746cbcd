// Tenth batch, part n: same author as voices-people-l.ts (`layer1-s8b`). More of the three
// families the held-out split reads worst, in other registers: the question after the pasted
// data (and data arriving in an earlier turn), stats homework, "explain these numbers" beside
// "write the query"; extraction asked as "list", "which", "fill in", "every …" with no verb of
// condensing; research as a lookup of a fact (low), a comparison of sources, an investigation
// for a decision. Same notation as coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const dataAnalysis17: FamilyItems = {
  low: [
    'p = 0.049 with n = 12 per group. should I trust it?',
    'standard deviation of 4, 8, 6, 5, 3, 7? and is 8 an outlier here',
    'our CTR went from 2.1% to 2.4% on 50k impressions each week, meaningful or noise?',
    '```\nquery returned:\n country | avg_basket\n DE      | 54.20\n FR      | 49.80\n IT      | 61.10\n ES      | 47.30\n```\nwhich market should I look at first and why, one line',
    'fr:d\'après ces chiffres, quel mois a été le pire pour les ventes ?\n\n{{csv}}',
    'ja:このデータで外れ値はどれ？\n\n{{csv}}',
  ],
  medium: [
    '{{csv}}\n\nthat\'s our refunds by reason code for the quarter. what stands out, and what would you investigate first?',
    'Our supplier claims its bulbs last 1,000 h. We tested 25: mean 980 h, SD 60 h. Do we have grounds to say they fall short of the claim, and how would you put that to the supplier?',
    'I ran a regression of sales on ad spend and price; output below. Interpret the coefficients, R², and tell me whether price really matters.\n\n```\n            coef    std err   t      P>|t|\nconst      812.4    120.1    6.76   0.000\nad_spend     3.21     0.88   3.65   0.001\nprice      -14.70     9.90  -1.48   0.146\nR-squared: 0.41   N = 48\n```',
    ['I\'ll paste our weekly support tickets next.', 'Go ahead — what do you want to learn from them?', '{{midcsv}}\n\nare we getting more tickets per customer, or just more customers?'],
    'Here is the JSON our monitoring API returns for the last 7 days of job runs. Which jobs are getting slower and by how much?\n\n[{"job":"billing","runs":[41,43,44,47,49,52,55]},{"job":"export","runs":[12,11,13,12,12,11,12]},{"job":"reindex","runs":[300,280,310,295,620,640,650]}]',
    'Recruiter here: time-to-hire per role family is below. Where are we slowest, is it getting better, and which stage is the bottleneck?\n\n{{csv}}',
    { sys: 'Answer as a data analyst. Use only the data the user provides; say what it can and cannot show.', turns: 'Inventory turnover for our 6 product lines over 4 quarters:\n\n{{csv}}\n\nwhich lines tie up cash?' },
    'ru:вот выгрузка продаж по регионам за год. Проанализируй динамику и скажи, где просадка и почему она может быть\n\n{{midcsv}}',
    'it:analizza questi dati sui consumi energetici dell\'edificio e dimmi se l\'isolamento nuovo ha avuto effetto\n\n{{csv}}',
    'ko:이 설문 데이터를 분석해서 연령대별 차이가 유의한지 알려줘\n\n{{csv}}',
  ],
  high: [
    'Our marketplace data for 18 months is below (listings, views, messages, sales per category and city). Build me the analysis: which categories are supply-constrained vs demand-constrained, how that differs by city, and where adding supply would pay off most. Reason from the numbers.\n\n{{longcsv}}',
    'Hospital data below: admissions, length of stay, readmissions, ward, age band, weekday of discharge. Analyse whether weekend discharges have higher readmission once age and ward are accounted for, and how strong the evidence is.\n\n{{longcsv}}',
    'es:Analiza a fondo estos datos de abandono de clientes de dos años: segmentos, momentos de riesgo, efecto de los cambios de precio y qué variables predicen mejor el abandono\n\n{{longcsv}}',
  ],
};

export const extraction17: FamilyItems = {
  low: [
    'which flight number is in this booking confirmation?\n\n{{email}}',
    'the postcode from this address: Flat 3, 27 Carlisle Road, Hove BN3 4FS',
    'list the email addresses in this text\n\n{{doc}}',
    'who are the authors of this paper? just names\n\n{{doc}}',
    'pt:qual é o NIF que aparece nesta fatura?\n\n{{email}}',
    'zh:这段话里提到的金额是多少？\n\n{{doc}}',
  ],
  medium: [
    'Fill in this form from the letter below. Name: / Date of birth: / Policy number: / Claim amount: / Date of incident:\n\n{{email}}',
    'Every company named in this press release, with its country if stated, as a list.\n\n{{pages}}',
    'From this thread, list the questions the customer asked that we haven\'t answered yet. Quote them.\n\n{{email}}\n\n{{email}}',
    'Convert the schedule in this email into a table: day, time, session title, speaker.\n\n{{email}}',
    'Extract all KPIs mentioned in the quarterly letter with their values and period. JSON array. #json\n\n{{pages}}',
    'Which products in this catalogue text are marked as discontinued? SKU and name only.\n\n{{pages}}',
    'Read the CVs below and extract for each: name, current title, years of experience, programming languages. Table.\n\n{{doc}}\n\n{{doc}}',
    { sys: 'Return a JSON object with keys "sender", "date", "topic", "requested_action", "deadline" (null if none). No prose.', turns: '{{email}}' },
    'de:Liste alle Termine aus diesem Protokoll mit Datum, Uhrzeit und Ort auf\n\n{{pages}}',
    'sv:plocka ut alla belopp och datum ur den här texten och gör en tabell\n\n{{pages}}',
    'ko:이 계약서에서 당사자, 계약 기간, 금액을 JSON으로 뽑아줘 #json\n\n{{pages}}',
  ],
  high: [
    'Here is a full year of customer complaint emails. Extract for each one: date, customer, product, category of complaint (as the customer states it), requested remedy, and any legal threat. One row per email, do not skip any.\n\n{{longdoc}}',
    'From these research papers, build an evidence table: paper, year, design, sample size, population, intervention, outcome measure, effect size as reported. Only what the papers state.\n\n{{longdoc}}',
    'fr:À partir de l\'ensemble de ces procès-verbaux, extrais chaque engagement pris par la mairie : date, texte exact, service concerné, échéance, sous forme de tableau complet\n\n{{longdoc}}',
  ],
};

export const research17: FamilyItems = {
  low: [
    'what is the current VAT rate for books in Germany?',
    'who is the CEO of Spotify these days?',
    'what year did the Berlin airport finally open?',
    'is Rust or Go more used in new CNCF projects? quick answer with where you got it',
    'it:in che anno è stata fondata l\'Unione Europea?',
    'ru:какая сейчас самая высокая гора в Африке и какая у неё высота?',
  ],
  medium: [
    'Before we buy: what do independent tests and long-term user reports say about heat pumps in old, poorly insulated houses? Sources please.',
    'Compare how the Guardian, the FT and Reuters covered the collapse of SVB in its first week — framing, sources they relied on, what each got wrong.',
    'Find out what the main cloud providers charge for egress in Europe and how that has changed over the last three years.',
    'Journalist request: what is known about the ownership structure of the company below, from public registries and reporting? Note what is confirmed vs alleged.\n\n{{doc}}',
    'Look into the evidence on whether four-day weeks reduce sick leave. Which trials exist, how were they run, what did they find?',
    { sys: 'You are a research assistant. Always compare at least three sources and state how reliable each is.', turns: 'what are the side effects of melatonin taken long-term?' },
    ['Can you help me with something for work?', 'Of course. What is it?', 'we\'re choosing a vector database. research the main options (pgvector, Qdrant, Weaviate, Pinecone), what benchmarks and users report, and where each falls short'],
    'nl:zoek uit wat onderzoek zegt over het effect van schermtijd op de slaap van kinderen, met bronnen',
    'zh:调查一下目前主流的开源OCR工具，比较准确率、支持的语言和社区活跃度，附上来源',
    'tr:yapay zekâ ile kod üretiminin yazılım kalitesine etkisi hakkında son araştırmaları incele ve özetle',
  ],
  high: [
    'Produce a market study for opening a specialty coffee roastery in Kraków: market size, competitors, wholesale vs retail demand, pricing, suppliers, regulation, and the risks. Cite your sources and rate their reliability.',
    'Investigate the replication crisis in social psychology: which famous findings failed to replicate, what the large replication projects found, what reforms followed, and what the evidence says about whether they are working.',
    'pl:przygotuj przegląd literatury na temat skuteczności terapii poznawczo-behawioralnej online w leczeniu depresji: badania, wielkości efektów, ograniczenia, luki w wiedzy',
  ],
};

export const conversation17: FamilyItems = {
  low: [
    'you\'re funny, you know that?',
    'ugh mondays. how\'s your day going',
    'nl:goedemorgen! zin in het weekend',
    'it:grazie mille, sei stato gentilissimo',
  ],
  medium: [
    'My dad keeps sending me conspiracy videos. I don\'t want a fact-check, I want to know how to talk to him without a fight.',
    'Be honest: is it weird to bring homemade lunch to a client dinner meeting? I have allergies.',
    'pt:o meu melhor amigo vai mudar-se para outro país e estou triste. como é que lido com isto?',
  ],
  high: [],
};
