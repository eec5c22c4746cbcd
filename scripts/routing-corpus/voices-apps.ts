// Fourth batch: requests as apps send them. The task is often in the system prompt and the user
// turn is only material; requirements come as bullet lists; a "Context:" block precedes the ask;
// people write in the second person to a role ("You are my editor..."). Same notation as
// coding.ts, plus {sys, turns} items whose system prompt carries the task.
import type { FamilyItems } from './types.ts';

export const coding4: FamilyItems = {
  low: [
    { sys: 'You are a code assistant. Answer with code only, no explanation.', turns: 'reverse words in a sentence, python' },
    { sys: 'Explain the given shell command in one sentence.', turns: 'tar -xzvf archive.tar.gz -C /opt' },
    'Context: Node 20, ESM.\nQuestion: how do I get __dirname?',
    'You are my pair programmer. Quick one: what does HTTP 422 mean?',
    { sys: 'You fix typos in code. Return only the corrected line.', turns: 'consle.log("done")' },
    'es:Contexto: React 18. Pregunta: ¿cómo evito que useEffect se ejecute dos veces en desarrollo?',
  ],
  medium: [
    { sys: 'You are a senior reviewer. Review the pull request diff the user pastes: list bugs, risks and style issues, then suggest fixes.', turns: '{{code}}' },
    { sys: 'Convert the user\'s code to idiomatic TypeScript with types. Explain notable changes briefly.', turns: '{{code}}' },
    'Requirements:\n- Python 3.11\n- read a JSON lines file\n- group records by "country"\n- write one CSV per country\n- skip malformed lines and count them\nWrite the script.',
    'Context: we use Postgres 16 and Prisma.\nTask: add soft delete to the User and Post models, update the queries so deleted rows are hidden by default, and write the migration.',
    { sys: 'You are a debugging assistant. The user pastes an error; explain the cause and give a fix.', turns: '{{log}}' },
    'de:Anforderungen:\n- Go 1.22\n- HTTP-Handler für Datei-Uploads bis 50 MB\n- Prüfung des MIME-Typs\n- Speicherung in S3\nBitte implementieren und testen.',
  ],
  high: [
    { sys: 'You are a staff engineer. Produce a design document: context, goals, non-goals, architecture, data model, APIs, failure modes, rollout, open questions.', turns: 'We need a notification service (email, SMS, push, in-app) for 30 million users with preferences, quiet hours, templating, retries and per-channel rate limits.' },
    { sys: 'You refactor codebases. Given the code, propose a new module structure and rewrite the core modules with tests.', turns: '{{bigcode}}' },
    'Requirements for our new ingestion pipeline:\n- 200k events/s peak\n- exactly-once into the warehouse\n- schema evolution\n- replay from 30 days\n- per-tenant quotas\n- p99 end-to-end under 5 s\nDesign it, compare Kafka+Flink with Kinesis+Lambda, choose, and write the core consumer.',
    'Context: our iOS and Android apps share nothing, two teams, duplicated bugs.\nTask: plan a move to a shared core (Kotlin Multiplatform or Rust) with native UIs: architecture, build tooling, team changes, a pilot feature, and the risks. Include sample shared code.',
    'fr:Exigences :\n- API REST multi-tenant\n- authentification OAuth2\n- quotas par client\n- journal d\'audit immuable\n- déploiement sur Kubernetes\nConçois l\'architecture complète et écris le code du middleware d\'isolation des tenants.',
  ],
};

export const writing4: FamilyItems = {
  low: [
    { sys: 'Rewrite the user\'s text in a friendlier tone. Return only the rewritten text.', turns: 'Your request has been denied due to missing documents.' },
    { sys: 'Correct spelling and grammar. Return only the corrected sentence.', turns: 'i has went to the store yesterday and buyed milk' },
    { sys: 'Generate one catchy headline for the text.', turns: '{{doc}}' },
    'You are my copywriter. One-line tagline for an eco laundry detergent.',
    { sys: 'Translate corporate jargon into plain English. One sentence.', turns: 'We need to leverage our synergies to move the needle on key deliverables going forward.' },
    'ja:あなたは編集者です。この一文をもっと自然にしてください：「本日は晴天なり、外出日和でございます。」',
  ],
  medium: [
    { sys: 'You are the brand voice of a playful snack company. Write social posts from the user\'s brief.', turns: 'Brief: new spicy mango chips, launch Friday, 3 posts for Instagram, one for LinkedIn.' },
    { sys: 'Rewrite the user\'s draft to be clearer and more persuasive, keeping it about the same length.', turns: '{{doc}}\n\n{{doc}}' },
    'Brief:\n- audience: parents of toddlers\n- product: a sleep-tracking night light\n- tone: reassuring, not salesy\n- length: ~400 words\nWrite the landing page copy.',
    'Context: I\'m a nurse leaving clinical work for health tech.\nTask: write my LinkedIn "About" section, first person, around 250 words.',
    { sys: 'Write a short story from the user\'s prompt, 600-900 words.', turns: 'A vending machine in a train station starts giving people what they need instead of what they pay for.' },
    'pt:Briefing:\n- público: jovens de 18 a 25\n- produto: app de finanças\n- tom: descontraído\nEscreva três textos de anúncio.',
  ],
  high: [
    { sys: 'You are a professional ghostwriter. From the user\'s notes, write a complete long-form piece in their voice, with structure and revisions notes.', turns: '{{longdoc}}' },
    'Brief for our annual impact report:\n- 12 pages\n- sections: letter from the founder, year in numbers, 4 program stories, partners, financials narrative, outlook\n- tone: warm and credible\nWrite the full text.',
    { sys: 'You are a developmental editor. Give a full structural edit and rewrite the weakest chapter.', turns: '{{longdoc}}' },
    'Context: a museum is opening an exhibition on the history of maps.\nTask: write all the texts: introduction panel, 10 section panels, 30 object labels, a children\'s trail and a press release.',
    'de:Briefing:\n- Roman, Genre Familiensaga\n- Ort: Ostfriesland, 1950 bis heute\n- drei Generationen\nSchreibe ein ausführliches Exposé, die Figurenbiografien und das erste Kapitel vollständig.',
  ],
};

export const research4: FamilyItems = {
  low: [
    { sys: 'Answer factual questions in one short sentence.', turns: 'What is the chemical formula of table salt?' },
    { sys: 'You are a trivia bot. Answer briefly.', turns: 'Which ocean is the deepest?' },
    'You\'re my study buddy. Quick: who wrote the Communist Manifesto?',
    'Context: pub quiz tonight. What\'s the smallest country in the world?',
    'fr:Réponds brièvement : combien de pays compte l\'Union européenne ?',
    'zh:简单回答：光速是多少？',
  ],
  medium: [
    { sys: 'You are a research assistant. Give a balanced overview with sources the user can check.', turns: 'Do electric scooters reduce car trips in cities?' },
    { sys: 'Explain the topic to an intelligent non-expert in about 400 words.', turns: 'How do interest rates affect house prices?' },
    'Context: I\'m writing a school report.\nQuestion: what were the main causes of the French Revolution, and which ones do historians argue about?',
    'Questions:\n1. What is quantitative easing?\n2. Why did central banks use it after 2008?\n3. What side effects did it have?',
    'You are a librarian. What should I read to understand the history of the Ottoman Empire, and why those books?',
    'it:Domande:\n1. Che cos\'è l\'effetto serra?\n2. Quali gas contribuiscono di più?\n3. Cosa dicono gli ultimi rapporti IPCC?',
  ],
  high: [
    { sys: 'You are a policy analyst. Produce a full briefing paper: background, evidence review, options with trade-offs, recommendation, and references.', turns: 'Should our country adopt a sugar tax on soft drinks?' },
    'Context: we are a foundation deciding where to fund malaria work.\nTask: a thorough evidence review comparing bed nets, seasonal chemoprevention, the new vaccines and gene drives: cost-effectiveness, evidence quality, risks, and a recommendation.',
    { sys: 'Synthesise the documents the user provides into a structured research report with citations to the documents.', turns: '{{longdoc}}' },
    'Questions for a deep review:\n1. How has remote work changed urban real estate since 2020?\n2. Which cities adapted best?\n3. What does the evidence say about office-to-residential conversions?\n4. What is likely in the next decade?',
    'es:Contexto: preparo una tesis.\nTarea: revisión exhaustiva de la literatura sobre el impacto de la inteligencia artificial en la educación universitaria, con métodos, resultados, vacíos y una agenda de investigación.',
  ],
};

export const dataAnalysis4: FamilyItems = {
  low: [
    { sys: 'You are a spreadsheet helper. Answer with the formula only.', turns: 'count unique values in A2:A500' },
    { sys: 'Compute what the user asks from the table. Answer with the number only.', turns: 'total revenue\n\n{{csv}}' },
    'Context: weekly report.\nQuestion: what\'s the average of the last column?\n\n{{csv}}',
    'You are my analyst. Which row stands out as an outlier here?\n\n{{csv}}',
    'ja:表の合計値だけ教えてください。\n\n{{csv}}',
  ],
  medium: [
    { sys: 'You are a data analyst. Analyse the data the user pastes: trends, anomalies, and three takeaways.', turns: '{{csv}}' },
    { sys: 'Write SQL for the user\'s question against the schema given, then explain the result columns.', turns: 'Schema: orders(id, customer_id, total, created_at), customers(id, country).\nQuestion: revenue per country per quarter in 2024 and each country\'s share.' },
    'Questions about this data:\n1. Which segment grew fastest?\n2. Is the growth steady or driven by one month?\n3. What would you check next?\n\n{{csv}}',
    'Context: board meeting Thursday.\nTask: turn this data into 3 charts with titles and one sentence of insight each.\n\n{{csv}}',
    'fr:Tu es analyste. Analyse ces données et donne trois conclusions chiffrées.\n\n{{csv}}',
  ],
  high: [
    { sys: 'You are a senior data scientist. Produce a full analysis plan and the code, then interpret results and state limitations.', turns: 'We want to know whether our loyalty program increases purchase frequency. We have 3 years of transactions, enrollment dates (self-selected), and demographics.' },
    { sys: 'Analyse the full dataset the user provides end to end and write a report with methods, results, and recommendations.', turns: '{{longcsv}}' },
    'Context: marketplace with 40k sellers.\nTask: design the seller health score: metrics, weighting (validated against churn), thresholds, monitoring, and the SQL/Python to compute it daily. Explain validation in detail.',
    'zh:背景：连锁超市，200 家门店。\n任务：建立完整的需求预测和补货分析方案，包括数据处理、模型选择、回测、误差分析和代码。',
  ],
};

export const math4: FamilyItems = {
  low: [
    { sys: 'Answer math questions with the result only.', turns: '17 * 23' },
    { sys: 'You are a calculator.', turns: 'sqrt(2) to 4 decimals' },
    'You\'re my tutor. Is 1 a prime number?',
    'Context: baking. 250 g is how many ounces?',
    'de:Kurze Frage: Was ist 3 hoch 4?',
  ],
  medium: [
    { sys: 'You are a patient math tutor. Solve the problem step by step and check the answer.', turns: 'A rectangle\'s length is twice its width and its diagonal is 10 cm. Find its area.' },
    { sys: 'Show full working for every calculation.', turns: 'Find the present value of $10,000 received in 5 years at 7% annual discount rate, and of an annuity of $2,000 per year for 5 years.' },
    'Problems:\n1. Solve 2^(x+1) = 32\n2. Find the domain of sqrt(4 - x^2)\n3. Differentiate x·ln(x)\nShow steps for each.',
    'Context: statistics homework.\nTask: a sample of 25 has mean 52 and sd 10. Build a 95% confidence interval for the mean and explain each step.',
    'es:Problemas:\n1. Resuelve x² - 7x + 12 = 0\n2. Calcula la derivada de sin(x²)\nExplica cada paso.',
  ],
  high: [
    { sys: 'You are a mathematician. Give complete, rigorous proofs with every step justified.', turns: 'Prove that every finite integral domain is a field, and that the characteristic of a finite field is prime.' },
    { sys: 'Write proofs in LaTeX with lemmas stated separately.', turns: 'Prove that the series sum of 1/n^p converges for p > 1 and diverges for p ≤ 1, using the integral test, and prove the integral test itself.' },
    'Problems (olympiad level, full solutions):\n1. Prove that for all positive reals a, b: (a + b)/2 ≥ sqrt(ab).\n2. Find all integers n such that n^2 + 1 is divisible by n + 1.\n3. Prove that among any 5 points in a unit square, two are at most sqrt(2)/2 apart.',
    'Context: graduate course in probability.\nTask: prove the weak law of large numbers via Chebyshev, then state and prove the strong law for bounded i.i.d. variables using the fourth moment method.',
    'fr:Problèmes :\n1. Démontre que la suite u(n+1) = u(n)/2 + 1/u(n) converge vers racine de 2.\n2. Démontre que racine de 3 est irrationnel.\nRédige des démonstrations complètes.',
  ],
};

export const summarization4: FamilyItems = {
  low: [
    { sys: 'Summarize the user\'s text in one sentence.', turns: '{{doc}}' },
    { sys: 'Produce a TL;DR of at most 15 words.', turns: '{{doc}}' },
    { sys: 'Write a one-line preview of the email for a notification.', turns: '{{email}}' },
    'You are my assistant. Give me the gist:\n\n{{doc}}',
    { sys: 'Résume le texte de l\'utilisateur en une phrase.', turns: 'fr:{{fdoc}}' },
  ],
  medium: [
    { sys: 'You summarize meeting transcripts into: summary, decisions, action items (owner, due), open questions.', turns: '{{doc}}\n\n{{doc}}\n\n{{doc}}' },
    { sys: 'Condense the article into 5 bullet points and a one-paragraph summary.', turns: '{{doc}}\n\n{{doc}}' },
    { sys: 'Summarize the support ticket thread for the next agent: problem, what was tried, current status, next step.', turns: '{{doc}}\n\n{{email}}' },
    'Context: I\'m a busy founder.\nTask: summarize these investor updates from our portfolio into a half-page digest.\n\n{{doc}}\n\n{{doc}}',
    { sys: 'Fasse den Text des Nutzers in fünf Stichpunkten zusammen.', turns: 'de:{{doc}}\n\n{{doc}}' },
  ],
  high: [
    { sys: 'You produce executive summaries of long documents: one-page summary, then section-by-section notes, keeping every figure and decision.', turns: '{{longdoc}}' },
    { sys: 'Summarize the full transcript into a structured record per speaker and per topic, with decisions and disagreements.', turns: '{{longdoc}}' },
    'Context: due diligence.\nTask: summarize the entire data room export below: business overview, financials, contracts, litigation, HR, IP, and red flags with page references.\n\n{{longdoc}}',
    { sys: '请对用户提供的长文档做分章节总结，并给出整体结论和关键数据。', turns: 'zh:{{longdoc}}' },
  ],
};

export const translation4: FamilyItems = {
  low: [
    { sys: 'Translate the user\'s message into English. Output only the translation.', turns: 'fr:Je voudrais réserver une table pour deux personnes ce soir.' },
    { sys: 'Translate the user\'s message into Spanish. Output only the translation.', turns: 'Where can I buy a train ticket?' },
    { sys: 'Translate into German. Only the translation.', turns: 'The meeting is postponed until Monday.' },
    { sys: 'Translate into Japanese.', turns: 'Thank you for your order.' },
    { sys: 'Translate the text into French.', turns: 'Please keep the door closed.' },
    { sys: 'You translate Chinese into English.', turns: 'zh:我明天早上九点到。' },
  ],
  medium: [
    { sys: 'You are a professional translator. Translate the user\'s text into German, preserving tone and formatting.', turns: '{{doc}}' },
    { sys: 'Translate the user\'s document into English, preserving formatting.', turns: 'es:{{fdoc}}\n\n{{fdoc}}' },
    { sys: 'Localise the marketing text for Brazil (Portuguese), adapting idioms.', turns: '{{doc}}' },
    { sys: 'Translate the email into Italian, formal register.', turns: '{{email}}' },
    { sys: 'Translate the user\'s text to Simplified Chinese.', turns: '{{doc}}\n\n{{doc}}' },
  ],
  high: [
    { sys: 'You are a certified legal translator. Translate the entire document into English, keep numbering, and append a glossary and translator\'s notes.', turns: 'de:{{longdoc}}' },
    { sys: 'Translate the full manuscript into Spanish as a literary translation with notes on difficult passages.', turns: '{{longdoc}}' },
    { sys: 'Localise the whole product documentation into Japanese with a consistent terminology list.', turns: '{{longdoc}}' },
    { sys: 'Translate the complete report into French, keeping tables and figures, with a glossary.', turns: '{{longdoc}}' },
  ],
};

export const extraction4: FamilyItems = {
  low: [
    { sys: 'Extract the email address from the text. Output only the address.', turns: '{{email}}' },
    { sys: 'Classify the sentiment of the review as positive, negative or neutral. One word.', turns: 'The hotel was clean but the staff were rude and breakfast was cold.' },
    { sys: 'Return the total amount as a number.', turns: '{{email}}' },
    { sys: 'Detect the language of the text. Answer with the ISO code.', turns: 'Obrigado pela sua ajuda, até amanhã!' },
    { sys: 'Label the intent: cancel, upgrade, question, complaint.', turns: 'I want to stop my subscription at the end of this month.' },
    { sys: 'Extrais la date du texte au format AAAA-MM-JJ.', turns: 'fr:Le rendez-vous est fixé au mardi 12 mars 2024.' },
  ],
  medium: [
    { sys: 'Extract invoice data as JSON: vendor, number, date, due_date, lines[{description, amount}], total, currency.', turns: '{{email}} #json' },
    { sys: 'You are a CV parser. Output JSON with name, email, phone, location, experience[], education[], skills[].', turns: '{{email}} #json' },
    { sys: 'Extract all named entities with their type (PERSON, ORG, LOC, DATE, MONEY) as a JSON list.', turns: '{{doc}}\n\n{{doc}} #json' },
    { sys: 'Classify each customer message by topic and urgency; output a table.', turns: '{{email}}\n\n{{email}}\n\n{{email}}' },
    { sys: 'Convert the receipt into CSV rows: item, qty, price.', turns: '{{email}}' },
  ],
  high: [
    { sys: 'You are a contract analysis engine. Extract every clause of the given type list (obligations, payment, termination, liability, confidentiality, governing law) with clause number and verbatim quote, as JSON.', turns: '{{longdoc}} #json' },
    { sys: 'Extract a knowledge graph (entities, attributes, relations) from the documents, deduplicating entities. Output JSON.', turns: '{{longdoc}} #json' },
    { sys: 'From the long record dump, extract all transactions with date, parties, amount and currency into CSV, and list records that could not be parsed.', turns: '{{longdoc}}' },
    { sys: 'Extrae de los documentos todas las fechas límite, responsables y penalizaciones en JSON con la cita exacta.', turns: 'es:{{longdoc}} #json' },
  ],
};

export const conversation4: FamilyItems = {
  low: [
    { sys: 'You are Pip, a cheerful chatbot for kids. Keep replies short and kind.', turns: 'hi pip! do you like dinosaurs?' },
    { sys: 'You are a friendly companion. Keep it light.', turns: 'just finished a long day, phew' },
    'You\'re my buddy. Say something funny.',
    { sys: 'You are the receptionist bot of a hotel. Be warm.', turns: 'Good evening!' },
    { sys: 'Du bist ein freundlicher Chatbot.', turns: 'de:Na, alles klar bei dir?' },
  ],
  medium: [
    { sys: 'You are a supportive listener. Respond with empathy and gentle questions.', turns: 'I\'ve been feeling lonely since my divorce and weekends are the worst.' },
    { sys: 'You are a dating coach. Give practical, kind advice.', turns: 'I matched with someone I really like but I never know how to keep the conversation going over text.' },
    'You are my career mentor. I feel stuck at my job after 3 years. Can we talk about what I should do?',
    { sys: 'You are a language exchange partner. Chat naturally in Spanish and correct mistakes gently.', turns: 'es:Hola! Ayer yo fui a la playa con mis amigos y comimos muchos helado.' },
    'Context: my best friend is getting married and I can\'t afford the bachelorette trip.\nQuestion: how do I tell her without hurting her?',
  ],
  high: [
    { sys: 'You are a thoughtful life coach. Take the user through a structured, in-depth reflection: values, options, risks, feelings, and a concrete plan.', turns: 'I\'m 38, a successful accountant, and I want to become a chef. I have a partner, a mortgage and a 6-year-old.' },
    { sys: 'You are a family mediator helping one party prepare. Be thorough and balanced.', turns: 'My siblings and I must decide what to do with our late parents\' house. One wants to sell, one wants to live there, and I want to rent it out. Help me prepare for the discussion in depth.' },
    'Context: I\'m a new manager of 8 people; two senior members applied for my job and resent me.\nTask: talk me through it in depth: how to build trust with them, first one-on-ones, what to say in the first team meeting, mistakes to avoid, and how to get support from my boss.',
  ],
};
