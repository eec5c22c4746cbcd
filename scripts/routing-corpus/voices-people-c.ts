// Seventh batch, third part: same author as voices-people-a.ts. Threads (the ask is the newest
// turn, after an exchange about something else or the same thing), apps that carry the task in
// the system prompt, long-winded context before a small ask, and asks that name the result they
// want ("a table", "a list", "a version for...") rather than the kind of work. Same notation as
// coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const coding8: FamilyItems = {
  low: [
    ['can you help with some python', 'Of course. What are you working on?', 'how do I sort a dict by value'],
    { sys: 'You answer shell questions for Linux admins. One command, one sentence.', turns: 'count lines in all .log files under /var/log' },
    'So I have been learning to code for two weeks and I keep seeing "const" and "let" in JavaScript tutorials. Which one should I use?',
    'fix: TypeError: Cannot read properties of null (reading \'addEventListener\')',
    'what\'s the difference between == and === again',
    'fr:c\'est quoi la commande pour voir les branches distantes dans git ?',
    'regex for a UK postcode?',
    ['Here is my loop:\n\nfor i in range(len(names)):\n    print(i, names[i])', 'That works; Python has a neater way to get the index.', 'show me the neater way'],
  ],
  medium: [
    ['I am building a budget app in React.', 'Nice. What do you need help with?', 'a hook that loads the transactions from our API, caches them, and refetches when the month changes. with loading and error states'],
    { sys: 'You are a migration assistant. Convert the user\'s SQL from MySQL to PostgreSQL and explain each change.', turns: '{{code}}' },
    'My friend who runs a small gym asked me to make a page where members can book classes. I know a bit of Python. Can you write it with Flask and SQLite, with a limit per class?',
    '{{log}}\n\nThe error above shows up when two users save at the same time. The save handler:\n\n{{code}}\n\nWhat is going on and how do I fix it properly?',
    'Write a shell script for my Raspberry Pi that backs up the photos folder to an external drive every night, keeps 7 versions, and emails me if it fails.',
    'I need a function that takes a list of meeting times and finds the free slots for everyone in the team. Python, with tests.',
    'es:necesito un script en Node que lea un Excel de clientes y mande un correo personalizado a cada uno, con control de errores',
    ['We use Terraform for AWS.', 'Good. What resources?', 'write the module for a private S3 bucket with versioning, encryption, lifecycle to glacier after 90 days, and a policy that only our CI role can write'],
  ],
  high: [
    ['We are a team of four building a marketplace for used bikes.', 'Sounds fun. Where are you stuck?', 'everything backend: we need listings, search with filters, messaging between buyer and seller, payments with escrow, and reviews. design the whole thing and write the core of it, we use TypeScript and Postgres'],
    { sys: 'You are a principal engineer. Deliver: a design doc, then code for the core components, then a test plan.', turns: 'A rate limiter service shared by 40 microservices, with per-tenant and per-endpoint limits, bursts, and global limits across three data centres.' },
    'I inherited this code from a contractor who left. Nobody understands it. Please go through all of it, explain what it does, find what is broken, and restructure it into something maintainable with tests:\n\n{{bigcode}}',
    'Write a real-time collaborative whiteboard: a WebSocket server, CRDT-based shape syncing, presence cursors, undo per user, and persistence. Node on the server, plain TypeScript on the client.',
    'zh:我们要把一个老的Java单体应用迁移到云原生架构，请给出完整的迁移方案：服务拆分、数据迁移、灰度发布、监控，以及关键服务的示例代码。',
    'Our build takes 25 minutes and our monorepo has 300 packages. Design a new build system setup (Bazel, Nx or Turborepo), with remote caching and affected-only testing, and write the configuration for our main packages.',
    'it:progetta e implementa un sistema di prenotazione per un ambulatorio medico: agenda dei medici, promemoria via SMS, gestione delle disdette, privacy dei dati sanitari, con il codice principale e i test',
    'Write an interpreter for a subset of Scheme in Go (define, lambda, let, if, lists, tail calls) with a garbage collector and a test suite, and explain the design.',
  ],
};

export const writing8: FamilyItems = {
  low: [
    ['I am organising a bake sale for the school.', 'Lovely! How can I help?', 'a title for the flyer'],
    { sys: 'You write short push notifications for a fitness app. Max 60 characters.', turns: 'remind the user they have not logged a workout in 3 days' },
    'I run a plant shop and need a caption for an Instagram photo of a monstera, something playful.',
    'reword this so it is not so stiff: "Please be advised that the meeting has been rescheduled."',
    'de:schreib mir einen kurzen Spruch für eine Abschiedskarte für meinen Kollegen, der in Rente geht',
    'Suggest five names for a podcast about raising twins.',
    'make this sound more professional: "hey guys, the report is late cuz the data was wrong"',
    'ja:新商品のキャッチコピーを3つ考えてください。商品は抹茶のアイスクリームです。',
  ],
  medium: [
    ['I have a job interview at a museum next week.', 'Congratulations! How can I help you prepare?', 'write the thank-you email I will send after the interview, mention that I loved talking about the children\'s workshops'],
    { sys: 'You are the brand voice of Nordlys, a Scandinavian furniture shop: calm, warm, precise. Write what the user asks.', turns: 'a newsletter for the autumn collection launch, about 300 words' },
    'My husband and I are renewing our vows on a beach. Write vows for me, around 2 minutes, sweet with a little humour. We met at a bus stop in the rain.',
    'Write a blog post for our vet clinic on how to keep pets calm during fireworks, 500 words, friendly.',
    'Rewrite these product instructions so a 10-year-old can follow them, keep all the safety warnings:\n\n{{doc}}',
    'zh:帮我写一封给房东的信，说明我们想提前两个月退租的原因，语气礼貌诚恳，大约三百字。',
    'I volunteer at an animal shelter. Write an adoption profile for Biscuit, a 7-year-old shy beagle who loves blankets and hates cats.',
    'Write a short persuasive essay (about 700 words) arguing that cities should ban cars from their historic centres.',
  ],
  high: [
    ['I am writing a mystery novel set in a lighthouse.', 'Great setting. What do you need?', 'the full outline: characters with backstories, the timeline of the murder, clues and red herrings chapter by chapter for 24 chapters, and the reveal'],
    { sys: 'You are a ghostwriter. Write long-form pieces in the client\'s voice from their notes.', turns: 'My notes for my book on leadership in small family businesses:\n\n{{longdoc}}\n\nWrite the introduction and the first two chapters.' },
    'Write the complete curriculum text for a 12-session creative writing workshop for retirees: for each session the theme, a short lecture text, two exercises and an example piece.',
    'We are launching a new city bike scheme. Write the whole campaign: manifesto, website copy, press release, 10 social posts, posters text, and the FAQ, all in one voice.',
    'es:escribe un cuento largo (unas 5.000 palabras) sobre una familia que regenta un faro en Galicia durante la posguerra, con varios narradores',
    'Write a full eulogy and the order of service texts for my grandfather\'s funeral: readings introductions, the eulogy (about 12 minutes), and a short thank-you note for the card. Notes about him:\n\n{{pages}}',
    'Write a 20-page illustrated children\'s book text about a cloud who wants to become rain, page by page, with illustration notes for each page.',
    'Write the full pitch deck narrative and speaker script for our Series A: problem, solution, market, traction, team, business model, competition, ask, about 20 slides.',
  ],
};

export const research8: FamilyItems = {
  low: [
    ['I am doing a pub quiz tonight.', 'Fun! Want to warm up?', 'yes: what is the largest desert in the world'],
    { sys: 'You are a fact-checking assistant. Answer in one sentence and say if the claim is true.', turns: 'Napoleon was very short.' },
    'what is the population of tokyo',
    'Is Pluto still a planet?',
    'ru:когда изобрели телефон?',
    'How far is the moon from the earth?',
    'quick one: who painted the Sistine Chapel ceiling',
    'es:¿cuál es el río más largo de Europa?',
  ],
  medium: [
    ['My grandfather was in the merchant navy in the war.', 'That must be an interesting family history.', 'what was life like for merchant sailors in the Atlantic convoys, and where could I find records about him?'],
    { sys: 'You are a research assistant for journalists. Give a sourced overview with the main points of disagreement.', turns: 'Do speed cameras reduce accidents?' },
    'I am choosing between a heat pump and a gas boiler for an old house in Scotland. What do studies and real-world data say about efficiency and costs in cold, damp climates?',
    'How did the printing press change Europe in the century after Gutenberg? I need the main effects for a school essay.',
    'What is the current understanding of why we dream?',
    'fr:quels sont les effets connus du télétravail sur la santé mentale, d\'après les études récentes ?',
    'Explain the history of the Suez Canal and why it mattered in 1956.',
    'Are standing desks actually good for you? What does the research show?',
  ],
  high: [
    ['I am writing my thesis on urban heat islands.', 'Interesting topic. What stage are you at?', 'the literature review: I need a full synthesis of the research on causes, measurement methods, health effects and mitigation (green roofs, cool pavements, trees), with the debates and gaps'],
    { sys: 'You are a policy analyst. Produce evidence reviews with sections, sources and a confidence rating per conclusion.', turns: 'What works to reduce youth unemployment? Compare apprenticeship systems, wage subsidies and job guarantees in Europe.' },
    'Trace how the scientific consensus on dietary fat and heart disease formed and changed from the 1950s to today, including the Sugar Research Foundation controversy, with sources.',
    'de:Erstelle eine ausführliche Analyse der Forschung zur Wirksamkeit von Bildschirmzeit-Beschränkungen für Kinder: Studiendesigns, Ergebnisse, Widersprüche und Empfehlungen von Fachgesellschaften.',
    'I need a comprehensive report on the state of nuclear fusion research: the main approaches, milestones, private companies, realistic timelines according to experts, and what would have to go right.',
    'Compare the pandemic responses of Sweden, New Zealand, South Korea and Germany: policies, timing, outcomes, economic costs, and what later analyses concluded.',
    'pt:faça uma revisão detalhada sobre o impacto do desmatamento da Amazônia no regime de chuvas da América do Sul, com as principais pesquisas e incertezas',
    'Investigate what is known about the long-term effects of social media on teenage mental health: the correlational studies, the experimental evidence, the critiques (Haidt vs Orben and Przybylski), and where it leaves parents.',
  ],
};

export const dataAnalysis8: FamilyItems = {
  low: [
    ['I pasted our bakery sales last time.', 'Yes, I remember the weekly figures.', 'ok so just tell me: were sundays better than saturdays?\n\n{{csv}}'],
    { sys: 'You read spreadsheets for managers. Answer the question about the data in one sentence.', turns: '{{csv}}\n\nWhich item sold the least?' },
    'My electricity bills this year: 84, 91, 77, 65, 58, 52, 49, 50, 61, 72, 88, 95. Which month was the most expensive and what is the monthly average?',
    'what is the range of these numbers: 14, 9, 22, 31, 7',
    'de:wie hoch ist der durchschnitt in dieser tabelle?\n\n{{csv}}',
    '{{csv}}\n\nany obvious outlier?',
    'ja:この表で一番売上が伸びた商品はどれですか？\n\n{{csv}}',
    'In our class survey 18 of 25 students prefer online homework. What percentage is that?',
  ],
  medium: [
    ['We run three coffee shops.', 'Great, what data do you have?', 'here is last month per shop and per hour. when should each shop have two baristas instead of one?\n\n{{midcsv}}'],
    { sys: 'You are an analyst for a small e-commerce company. Answer with a short analysis, a table, and one recommendation.', turns: '{{midcsv}}\n\nHow did the spring sale affect order values?' },
    'I track my running: distance, time and heart rate for the last 3 months below. Am I getting fitter? Show me what the numbers say.\n\n{{csv}}',
    'Look at the exam results by class and teacher and tell me if the differences are meaningful or just noise:\n\n{{csv}}',
    'pt:analise as vendas do nosso food truck por dia da semana e clima e diga onde devemos estacionar mais vezes\n\n{{midcsv}}',
    'Here are website traffic sources for two quarters. Which channel grew, which shrank, and what share does each have now?\n\n{{csv}}',
    'Check whether our delivery times got worse after we changed courier in June:\n\n{{midcsv}}',
    'it:ho i dati delle presenze in palestra per fascia oraria, dimmi quali orari sono sottoutilizzati e quanto\n\n{{csv}}',
  ],
  high: [
    ['I am the analyst at a regional bus company.', 'What are you working on?', 'ridership fell 12% this year. With the data below (routes, stops, hours, fares, weather), find out why, separate the causes, and tell us which routes to change first\n\n{{longcsv}}'],
    { sys: 'You are a senior data scientist. Deliver: method, results with uncertainty, limitations, recommendation.', turns: 'Estimate the effect of our free-shipping threshold on basket size from this data, accounting for seasonality and promotions.\n\n{{longcsv}}' },
    'We have sensor readings from 50 machines over 18 months. Find patterns that precede breakdowns, build a model to predict failures a week ahead, and estimate how much maintenance money it could save.\n\n{{longcsv}}',
    'de:Analysiere unsere Personaldaten der letzten fünf Jahre umfassend: Fluktuation nach Abteilung, Gehalt, Führungskraft und Dauer der Betriebszugehörigkeit, mit einem Modell für Kündigungsrisiko und Empfehlungen.\n\n{{longcsv}}',
    'Our clinical study collected blood pressure at 6 visits for 400 patients in two arms. Plan and run the analysis: missing data handling, a mixed model, the treatment effect with confidence intervals, and sensitivity analyses.\n\n{{longcsv}}',
    'Build a complete pricing analysis for our SaaS tiers from the usage and billing data: willingness to pay by segment, price elasticity estimates, and three scenarios for a new tier structure with projected revenue.\n\n{{longcsv}}',
    'fr:à partir de ces données de ventes sur trois ans et 40 magasins, construis une segmentation des magasins, explique les écarts de performance et propose un plan d\'action chiffré\n\n{{longcsv}}',
    'Analyse our whole support ticket history: volumes over time, topics, resolution times, reopen rates, and which product changes drove spikes. Then forecast staffing needs for next year.\n\n{{longcsv}}',
  ],
};

export const math8: FamilyItems = {
  low: [
    ['help me with my maths homework', 'Sure! What is the problem?', '3/4 + 2/3'],
    { sys: 'You are a calculator assistant. Give only the result.', turns: '17.5% of 3,240' },
    'How many seconds are in a day?',
    'what is 12 factorial',
    'fr:combien font 45 fois 37 ?',
    'Round 3.14159 to two decimal places.',
    'What is the next number: 2, 6, 12, 20, 30, ...?',
    'zh:解方程 2x + 5 = 17',
  ],
  medium: [
    ['My daughter is stuck on a word problem.', 'Happy to help. What does it say?', 'a train leaves at 9:00 going 80 km/h, another leaves the same station at 10:00 going 100 km/h. when does the second catch up? explain it so a 12 year old gets it'],
    { sys: 'You are a patient maths tutor. Show every step and check the answer at the end.', turns: 'Solve x^2 - 6x + 5 = 0 by completing the square.' },
    'I am buying a flat: loan 240,000 over 25 years at 4.1% fixed. What is the monthly payment and how much interest do I pay in total? Show how it is computed.',
    'What is the probability of getting at least one six when rolling four dice? Explain two ways to compute it.',
    'Find the equation of the tangent line to y = x^3 - 2x at x = 1 and sketch what it looks like in words.',
    'ja:1から100までの整数のうち、3でも5でも割り切れない数はいくつありますか。考え方も説明してください。',
    'Compute the standard deviation of 4, 8, 6, 5, 3, 7 by hand, showing each step.',
    'it:calcola il volume di un cono alto 12 cm con raggio di base 5 cm e spiega la formula',
  ],
  high: [
    ['I am preparing for a maths olympiad.', 'Great! What topic?', 'number theory: prove that for every prime p > 3, p^2 - 1 is divisible by 24, then generalise as far as you can and prove the generalisation'],
    { sys: 'You are a mathematics professor. Give rigorous proofs with every step justified.', turns: 'Prove that a finite integral domain is a field.' },
    'Prove that the harmonic series diverges, then prove that the sum of reciprocals of the primes also diverges.',
    'Derive the formula for the number of spanning trees of a complete graph (Cayley\'s formula) with a bijective proof.',
    'es:demuestra que toda matriz simétrica real es diagonalizable por una matriz ortogonal, con todos los pasos',
    'Solve the differential equation y\'\' + 4y\' + 13y = e^(-2x) cos(3x) completely, explain the method of undetermined coefficients for the resonant case, and verify the solution.',
    'Prove the fundamental theorem of algebra using Liouville\'s theorem, proving the lemmas you need along the way.',
    'Model a fishery with logistic growth and constant harvesting, find the equilibria and their stability, the maximum sustainable yield, and what happens when harvesting exceeds it. Full derivations please.',
  ],
};
