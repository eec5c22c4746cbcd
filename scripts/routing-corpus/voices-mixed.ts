// Third batch of hand-written requests: the borders between families (SQL for a report vs a
// query to fix, advice vs research, restyling vs condensing), requests that ask for a format
// (JSON, a table) without being extraction, long pasted context in every family, and more
// people who write tersely, formally, or in a hurry. Same notation as coding.ts.
import type { FamilyItems } from './types.ts';

export const coding3: FamilyItems = {
  low: [
    'This SQL errors with "column must appear in the GROUP BY clause". Fix?\n\nSELECT user_id, email, COUNT(*) FROM logins GROUP BY user_id;',
    'Return the result as JSON: what HTTP method should a "mark as read" endpoint use?',
    'Whats wrong with `if (x = 5)` in C',
    'python venv: create and activate on windows',
    'Explain this one-liner: `[...new Set(arr)]`',
    'Add a default value to this param: `def connect(host, port):`',
    'How do I get the current timestamp in milliseconds in Java?',
    'Is it safe to store JWTs in localStorage? Yes/no and one reason.',
    'fr:Quelle commande pour voir les logs d\'un pod kubernetes ?',
    'de:Was bedeutet der Fehler "Segmentation fault (core dumped)"?',
  ],
  medium: [
    'Write a function that takes a CSV file path and returns the rows as a list of dicts, handling quoted commas and a BOM. Python, with tests.',
    'Here\'s a failing test and the function. Why does it fail and how should I fix the function (not the test)?\n\n{{code}}\n\nassert normalize("  Hello  World ") == "hello world"',
    'Create a bash script that checks disk usage on 10 servers over SSH and emails a report if any is above 85%.',
    'Explain the difference between optimistic and pessimistic locking and show both in SQL for a seat-booking table.',
    'We need an endpoint that exports a user\'s data as a zip (GDPR). Write it in Express with streaming so it doesn\'t load everything into memory.',
    'Write a GraphQL schema and resolvers for posts, comments and authors with pagination, in Apollo Server.',
    'Set up ESLint + Prettier + Husky pre-commit hooks for a TypeScript monorepo with pnpm workspaces. Give the config files.',
    'Give me a Python decorator that retries a function on specific exceptions with exponential backoff and jitter, with type hints and tests.',
    'es:Escribe una función en JavaScript que valide un DNI español, con pruebas.',
    'ja:このSQLが遅いので、インデックスの追加も含めて改善してください。\n\n{{code}}',
  ],
  high: [
    'Here is our architecture document for the new billing platform. Review it like a principal engineer: find the weak points in consistency, failure handling, scaling and operability, then propose a revised design with diagrams described in text.\n\n{{longdoc}}',
    'Attached are the logs and the source of our worker service; it leaks memory over 48 hours until OOM. Find the leak, explain the mechanism, fix it, and add a regression test and monitoring.\n\n{{bigcode}}\n\n{{log}}',
    'Design and write a plugin system for our Electron app: sandboxed plugins, a permission model, an IPC API, versioning and a marketplace update flow. Include the host code and an example plugin.',
    'Implement a SQL query planner for a toy database: parse SELECT with joins and WHERE, build a logical plan, apply predicate pushdown and join reordering with a cost model, and execute against in-memory tables. TypeScript, with tests.',
    'We have this entire service (pasted) and must add multi-tenancy: tenant isolation in every query, per-tenant rate limits, tenant-aware caching and a migration for existing data. Plan it and write the changes.\n\n{{bigcode}}',
    'Write a complete, production-ready CLI in Go for managing DNS records across Cloudflare and Route53 with a common config format, dry-run diffs, concurrency limits, retries and tests.',
    'fr:Voici tout notre code d\'authentification. Fais un audit de sécurité complet, propose une nouvelle architecture avec rotation des clés et réécris les parties critiques.\n\n{{bigcode}}',
    'zh:这是我们整个订单服务的代码和最近的错误日志。请找出并发问题的根本原因，重新设计事务处理，并给出修改后的代码和测试。\n\n{{bigcode}}\n\n{{log}}',
  ],
};

export const writing3: FamilyItems = {
  low: [
    'Give me 5 name ideas for a coffee cart as a JSON array.',
    'Rewrite in British English: "The color of the program\'s center logo is gray."',
    'A one-sentence apology for replying late to an email.',
    'Make this more exciting: "Our store is open on Sunday now."',
    'Write alt text for a photo of a golden retriever catching a frisbee in a park.',
    'Suggest a chapter title for a chapter where the heroine leaves home.',
    'de:Gib mir drei Ideen für den Namen eines Fahrradladens.',
    'ja:新年の挨拶メールの件名を3つ考えてください。',
  ],
  medium: [
    'Write three versions of our product launch email (playful, premium, straightforward) for a smart water bottle, about 150 words each.',
    'Draft the FAQ section for our yoga studio website: 8 questions with friendly answers about classes, pricing, what to bring, and cancellations.',
    'Write a short motivational speech for my under-12 football team before the final.',
    'Rewrite this dry paragraph from our annual report so it tells a story, same facts:\n\n{{doc}}',
    'Write a LinkedIn recommendation for a colleague who led our migration project calmly under pressure.',
    'Write a 700-word travel piece about a rainy weekend in Edinburgh, first person, with sensory detail.',
    'Write a polite but firm email to a client who has not paid two invoices (60 and 90 days overdue).',
    'Give me the text for a greeting card set: 6 short messages for different occasions (new baby, sympathy, retirement, new home, graduation, thank you), as a table.',
    'fr:Écris un poème de quatre strophes sur la mer en hiver.',
    'zh:为我们的咖啡店写一段品牌故事，300字左右，温暖有画面感。',
  ],
  high: [
    'Write a complete 30-page (about 9,000 words) novella outline plus the first three chapters in full for a cozy mystery set in a seaside bookshop, with a cast list and clue map.',
    'Here are my notes from 40 interviews with nurses. Turn them into a narrative nonfiction feature (about 4,000 words) with a strong structure, scenes, and composite characters clearly disclosed.\n\n{{longdoc}}',
    'Write the full content of our company\'s culture handbook: mission, values with stories, how we work, decision-making, feedback, career growth, remote rules, and onboarding, about 6,000 words in a human voice.',
    'Write a full-length stand-up comedy set (about 20 minutes) about moving back in with your parents at 35, with callbacks, act-outs and a closer, plus notes on timing.',
    'es:Escribe una novela corta completa (unas 8.000 palabras) sobre dos hermanas que heredan una librería en Valparaíso, con capítulos, diálogos y un final abierto.',
    'de:Schreibe die kompletten Texte für eine Ausstellung über die Geschichte des Ruhrgebiets: Einleitung, 12 Raumtexte, 40 Objektbeschriftungen und einen Audioguide-Text.',
  ],
};

export const research3: FamilyItems = {
  low: [
    'Answer in JSON with keys country and capital: what is the capital of Canada?',
    'Which blood type is the universal donor?',
    'What is the largest desert in the world?',
    'Who won the 2018 FIFA World Cup?',
    'What does DNA stand for?',
    'How many time zones does Russia have?',
    'es:¿En qué año llegó Colón a América?',
    'zh:世界上面积最大的国家是哪个？',
  ],
  medium: [
    'Give me a table comparing the three main types of solar panels (monocrystalline, polycrystalline, thin-film): efficiency, cost, lifespan, best use.',
    'What happened at Chernobyl in 1986, and what are the long-term health effects according to the WHO and later studies?',
    'Explain how vaccines are tested before approval, phase by phase.',
    'Why is inflation higher in some countries than others? Explain the main factors with examples.',
    'Is it true that we only use 10% of our brains? Where did the myth come from?',
    'What are the main arguments in the debate about rent control? Include what economists find empirically.',
    'How did the Black Death change European society and the economy?',
    'Compare the Mediterranean and DASH diets: evidence for heart health and weight.',
    'de:Wie funktioniert der Emissionshandel in der EU und wie wirksam ist er laut Studien?',
    'ru:Какие существуют гипотезы происхождения жизни на Земле и какие у них доказательства?',
  ],
  high: [
    'I have pasted all the public statements, filings and press coverage about a company\'s failed merger. Build a sourced chronology, analyse why it failed (regulatory, cultural, financial), and compare with two similar failed mergers.\n\n{{longdoc}}',
    'Produce a systematic-review style synthesis on the effectiveness of cognitive behavioural therapy delivered by apps for depression: search strategy you would use, inclusion criteria, main RCTs and meta-analyses, effect sizes, risk of bias, and conclusions.',
    'Write a comprehensive history of the container shipping revolution from 1956 to today, and analyse its effects on ports, labour, globalisation and supply-chain fragility, with evidence for each claim.',
    'Assess the evidence on whether standardized testing predicts college success, comparing SAT/ACT studies, test-optional experiments after 2020, and international systems, and discuss equity implications in depth.',
    'fr:Rédige une étude comparative approfondie des politiques de lutte contre la pauvreté infantile au Royaume-Uni, en France et au Canada depuis 2000, avec résultats chiffrés et analyse des causes.',
    'ja:少子高齢化が地方自治体の財政に与える影響について、国内外の研究をもとに詳しく分析し、政策提言をまとめてください。',
  ],
};

export const dataAnalysis3: FamilyItems = {
  low: [
    'What\'s the sum of column "orders"?\n\n{{csv}}',
    'Give me the result as JSON {"max": ..., "min": ...} for the revenue column.\n\n{{csv}}',
    'Which student improved most from quiz1 to quiz2?\n\n{{csv}}',
    'What percentage of customers churned?\n\n{{csv}}',
    'ru:Какой месяц был самым прибыльным?\n\n{{csv}}',
    'ko:이 표에서 평균 매출은 얼마인가요?\n\n{{csv}}',
  ],
  medium: [
    'Write a SQL query that shows monthly active users and the month-over-month retention for the last 12 months from events(user_id, created_at), and explain how to read the result.',
    'Here\'s the export from our CRM. Which sales reps are above target, and what patterns do you see in deal size?\n\n{{csv}}',
    'Create a dashboard spec (charts, metrics, filters) for this data and say what each chart will reveal.\n\n{{csv}}',
    'Can you check if there is seasonality in this data and how strong it is?\n\n{{csv}}',
    'Summarize this table statistically (mean, median, spread per column) and point out anything odd.\n\n{{csv}}',
    'Use this data to estimate how many units we will sell next month, with a simple method and a range.\n\n{{csv}}',
    'fr:Écris la requête SQL pour calculer le panier moyen par mois et par canal, puis explique comment l\'interpréter.',
    'zh:用 pandas 对这份数据做分组统计和可视化，并解读结果。\n\n{{csv}}',
  ],
  high: [
    'Here is a year of app telemetry. Build the full analysis: define sessions, compute engagement and retention metrics, find the behaviours that predict 90-day retention, check for Simpson\'s paradox across platforms, and write recommendations.\n\n{{longcsv}}',
    'Design and analyse a pricing experiment across 4 price points and 3 markets: sample size, randomisation, analysis with demand curves and elasticity estimates, revenue-optimal price with uncertainty, and risks. Include code.',
    'Our hospital wants to predict ICU readmissions. Here is the de-identified dataset summary. Plan the modelling, handle leakage, evaluate fairness across groups, calibrate, and write the report for clinicians.\n\n{{longcsv}}',
    'de:Führe eine vollständige Analyse dieser Kundendaten durch: Datenqualität, Segmentierung, Kohorten, Treiber der Abwanderung mit Regressionsmodell und Handlungsempfehlungen.\n\n{{longcsv}}',
  ],
};

export const math3: FamilyItems = {
  low: [
    'Give the answer as JSON {"x": ...}: solve 4x - 6 = 10.',
    'What is 7/8 as a percentage?',
    'Convert 100°F to Celsius.',
    'What is the perimeter of a square with side 9?',
    'How many edges does a cube have?',
    'pt:Quanto é 15% de 90?',
  ],
  medium: [
    'Explain step by step how to find the standard form of the circle through (0,0), (4,0) and (0,6).',
    'Find the sum of the geometric series 3 + 3/2 + 3/4 + ... and explain why it converges.',
    'How much do I need to save each month to have $50,000 in 8 years at 6% per year compounded monthly? Show the formula and numbers.',
    'In how many ways can a committee of 3 women and 2 men be chosen from 7 women and 5 men? Explain.',
    'Solve x^3 - 6x^2 + 11x - 6 = 0 by factoring and check the roots.',
    'Two pipes fill a tank in 6 and 9 hours; a drain empties it in 12 hours. With all open, how long to fill it? Show the work.',
    'fr:Explique comment calculer la variance et l\'écart-type de 3, 7, 7, 19 avec toutes les étapes.',
    'ru:Реши систему уравнений методом Гаусса: x + 2y + z = 9, 2x - y + 3z = 8, 3x + y - z = 3.',
  ],
  high: [
    'Prove that the number of subsets of an n-element set is 2^n in three ways: induction, bijection with binary strings, and the binomial theorem. Then prove that the number of even-sized subsets equals the number of odd-sized ones for n ≥ 1.',
    'Prove Euler\'s formula V - E + F = 2 for connected planar graphs, then use it to prove that K5 and K3,3 are not planar.',
    'Prove that the function f(x) = x^2 is continuous at every point using the epsilon-delta definition, then prove that 1/x is not uniformly continuous on (0, 1).',
    'Derive the Black-Scholes PDE from a delta-hedging argument, state every assumption, and solve it for a European call using the heat equation transformation.',
    'Prove that in any triangle the three medians meet at one point that divides each in the ratio 2:1, using vectors, and then using Ceva\'s theorem.',
    'es:Demuestra por inducción la fórmula de la suma de los cubos de los n primeros naturales y luego da una demostración geométrica.',
  ],
};

export const summarization3: FamilyItems = {
  low: [
    'Summarize as JSON {"topic":"", "one_line":""}:\n\n{{doc}}',
    'In 3 words, what\'s this email about?\n\n{{email}}',
    '{{doc}}\nSummarize that in one line.',
    'Quick summary of the release notes, one sentence:\n\n{{doc}}',
    'ko:이 글을 한 문장으로 요약해 주세요.\n\n{{fdoc}}',
  ],
  medium: [
    'Turn this long email thread into a summary with a timeline of who said what, and the current status.\n\n{{email}}\n\n{{email}}\n\n{{email}}\n\n{{email}}',
    'Summarize these articles into a newsletter digest: a heading and 3 sentences per article.\n\n{{doc}}\n\n{{doc}}\n\n{{doc}}',
    'Give me the key findings of this study in plain language for a patient newsletter.\n\n{{doc}}\n\n{{doc}}',
    'Summarize this for me in a table: point, evidence, implication.\n\n{{doc}}\n\n{{doc}}',
    'Summarize the main complaints in these reviews and how often each appears.\n\n"Battery dies fast." "Love the screen but battery is weak." "Shipping was slow." "Battery life is terrible." "Great value, slow delivery though." "Customer service never replied."',
    'de:Fasse die wichtigsten Punkte dieser Mails für meinen Chef zusammen, maximal 100 Wörter.\n\n{{email}}\n\n{{email}}',
  ],
  high: [
    'This is the full discovery log of a lawsuit (deposition excerpts, emails, memos). Summarize it into a case memo: key facts in chronological order, what each witness said, contradictions between witnesses, and the documents that matter most.\n\n{{longdoc}}',
    'Summarize a full year of our company\'s all-hands transcripts: strategy shifts over time, commitments made and whether they were met, recurring employee concerns, and a short executive digest.\n\n{{longdoc}}',
    'Create a structured summary of this long technical specification for three audiences: executives (half a page), engineers (detailed, by component), and support (what changes for customers).\n\n{{longdoc}}',
    'pt:Resuma este longo relatório de sustentabilidade em três níveis (uma frase, um parágrafo, uma página) e depois por capítulo, mantendo todos os números.\n\n{{longdoc}}',
  ],
};

export const translation3: FamilyItems = {
  low: [
    'Return JSON {"fr": "...", "de": "..."} for the phrase "Free shipping".',
    'Translate "meeting room" into Chinese.',
    'Portuguese for "good morning, everyone"?',
    'What does the Japanese word "komorebi" mean?',
    'Translate "Fragile, handle with care" into Spanish and German.',
    'ja:「お疲れ様です」を英語に訳すと？',
  ],
  medium: [
    'Translate this job ad into English for our international careers page:\n\n{{email}}',
    'Translate our privacy notice summary into French and Spanish, plain language:\n\n{{doc}}',
    'Translate these five product reviews into English and keep the star emojis:\n\n{{fdoc}}\n\n{{fdoc}}',
    'I need this Slack announcement in German and Polish for our warehouse teams:\n\n{{doc}}',
    'Translate this into natural Korean for a K-drama fan page:\n\n{{doc}}',
    'fr:Traduis cet article en espagnol pour notre site :\n\n{{doc}}',
  ],
  high: [
    'Translate the full terms and conditions below into Italian with legal precision, keep the numbering, mark clauses that may conflict with Italian consumer law, and add a bilingual glossary.\n\n{{longdoc}}',
    'Translate this entire children\'s book into Spanish in rhyming verse that keeps the rhythm, then give a literal back-translation so the author can check meaning.\n\n{{longdoc}}',
    'Translate the whole game script (dialogue, item names, UI) into Japanese, keep character voices distinct, respect string length limits, and list jokes you adapted.\n\n{{longdoc}}',
    'zh:请把这份完整的商业计划书翻译成英文，保持格式和数字，先列出术语表，并标注文化差异需要调整的地方。\n\n{{longdoc}}',
  ],
};

export const extraction3: FamilyItems = {
  low: [
    'From this text, list the dates only: "Kickoff on 3 May, review on 17 May, launch on 1 June."',
    'Which currency is this invoice in?\n\n{{email}}',
    'Extract the company name and job title.\n\n{{email}}',
    'Is this ticket about billing? Answer yes or no. "My card was declined when renewing."',
    'Get the IBAN: "Please transfer to DE89 3704 0044 0532 0130 00, ref 4471."',
    'zh:从这段话中提取所有的地名：“我们从北京出发，经过西安，最后到成都。”',
  ],
  medium: [
    'Extract every product, quantity and price from this order email into a markdown table.\n\n{{email}}\n\n{{email}}',
    'Here are some support chats. For each, extract the customer issue, product, and whether it was resolved.\n\n{{doc}}\n\n{{doc}}',
    'Pull structured data from these event listings: name, date, venue, city, price, age limit. JSON array.\n\n"Jazz Night at Blue Room, Lisbon, 12 Oct, 20 EUR, 18+" "Kids Science Fair, City Museum Porto, 14-15 Oct, free" "Indie Film Marathon, Cine Ideal, Lisbon, 21 Oct, 35 EUR" #json',
    'Detect and extract personal data (names, emails, phone numbers, addresses, IDs) in this text so we can redact it. Return a list with type and position.\n\n{{email}}\n\n{{doc}}',
    'Classify each sentence in this review as praise, complaint, or suggestion.\n\n{{doc}}',
    'es:Extrae en JSON los datos de estas facturas: proveedor, número, fecha, total, impuestos.\n\n{{email}}\n\n{{email}} #json',
  ],
  high: [
    'Extract a structured dataset from this large collection of scientific abstracts: for each study, population, sample size, intervention, comparator, outcomes with effect sizes and CIs, and study design, then flag missing fields.\n\n{{longdoc}} #json',
    'From these months of customer emails, extract every product defect report with product, batch number, defect type, date, and customer region; cluster duplicates and output a JSON report with counts per defect.\n\n{{longdoc}} #json',
    'Go through this entire board pack and extract every decision, approval, risk and owner into a register with source page and exact wording.\n\n{{longdoc}}',
    'de:Extrahiere aus diesen umfangreichen Lieferantenverträgen alle Fristen, Preise, Mengen, Strafen und Kündigungsklauseln in JSON mit Klauselnummer und Zitat.\n\n{{longdoc}} #json',
  ],
};

export const conversation3: FamilyItems = {
  low: [
    'What\'s up?',
    'Tell me something to make me smile.',
    'Thanks for being patient with me today.',
    'Is it weird that I talk to an AI at night?',
    'Good luck wishes for my exam tomorrow?',
    'I\'m back!',
    'zh:谢谢你，晚安！',
    'es:Cuéntame un chiste de programadores.',
  ],
  medium: [
    'I feel guilty for wanting a week alone away from my kids. Can we talk about it?',
    'My roommate eats my food and says it\'s no big deal. How do I bring it up calmly?',
    'Can you be a friendly English conversation partner? Ask me about my weekend and correct my mistakes gently.',
    'I\'m overwhelmed by wedding planning and everyone has opinions. How do I keep my sanity?',
    'I got rejected from my dream job. Can you help me process it and think about what\'s next?',
    'What should I say to a friend whose father just died? I\'m afraid of saying the wrong thing.',
    'fr:Je n\'arrive pas à me motiver pour le sport. Tu peux m\'aider à trouver une routine qui me plaît ?',
    'ja:転職するか迷っています。話を聞いてもらえますか？',
  ],
  high: [
    'I want to come out to my conservative parents. I\'m 24, financially independent, close to my younger sister. Help me think through everything: timing, what to say, possible reactions and how I\'d respond, support I should line up, and how to protect my relationship with my sister whatever happens.',
    [
      'I\'m considering moving my elderly dad in with us.',
      'That\'s a big step. What\'s the situation?',
      'He\'s 82, recently widowed, mild mobility issues, lives 3 hours away. We have two kids, a 3-bedroom house, and my wife works from home. My brother won\'t help.',
      'How does your wife feel about it?',
      'Supportive but worried. Please help us think it all through: space, money, his independence, the kids, our marriage, my brother, alternatives like assisted living nearby, and a trial plan.',
    ],
    'I run a small bakery with my best friend and the partnership is falling apart over money and workload. Help me prepare for a big honest conversation with her: my goals, her likely view, options (restructure, buy-out, close), how to stay friends, and what to say if it gets heated.',
    'de:Ich bin 52, wurde gerade nach 25 Jahren entlassen und weiß nicht, wie es weitergehen soll. Lass uns ausführlich reden: Gefühle, Finanzen, Optionen wie Umschulung oder Selbstständigkeit, und ein Plan für die nächsten sechs Monate.',
  ],
};
