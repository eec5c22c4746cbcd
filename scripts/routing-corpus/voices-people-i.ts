// Ninth batch (session 8, a third author: `layer1-s8`). Written for the families the held-out
// split still reads worst (summarization, research, coding) and their confusable neighbours:
// terse developer requests and pasted code in many languages with no "write"/"fix" verb; long
// pasted documents asking for TL;DRs, abstracts and meeting notes; literature, market and
// "find out" requests beside plain chat; non-English requests; system prompts and threads.
// Same notation as coding.ts, plus {sys, turns} items. Labelled by what the person wants done.
import type { FamilyItems } from './types.ts';

export const coding13: FamilyItems = {
  low: [
    '```go\nm := map[string]int{}\nvar cache map[string]int\ncache["a"] = 1\n```\npanic: assignment to entry in nil map',
    'rust: borrowed value does not live long enough — `let s = String::from("x"); v.push(&s);` inside a loop',
    'npm ERR! ERESOLVE unable to resolve dependency tree. peer react@"^17" from react-dom@18. quickest way out?',
    'regex for a UK postcode',
    'bash one-liner: count lines in all .ts files under src, excluding tests',
    '```python\nfor i in range(len(xs)):\n    if xs[i] == None: xs.remove(xs[i])\n```\nIndexError sometimes??',
    'kotlin: how to make a data class field optional with a default',
    'git: undo last commit but keep the changes staged',
    '```sql\nSELECT name, COUNT(*) FROM orders GROUP BY customer_id;\n```\nERROR: column "orders.name" must appear in the GROUP BY clause',
    'TS2322: Type \'string | undefined\' is not assignable to type \'string\'. on `const id: string = params.id`',
    'swift — convert Date to ISO8601 string',
    'c#: LINQ to get distinct by property',
    'dockerfile: node 20 alpine, copy package.json first for caching. just the file',
    'ruby `each_with_object` vs `inject` — which one for building a hash from an array?',
    'php 8: `Deprecated: Creation of dynamic property` — what do I change in the class?',
    'jq filter to pull .items[].id as a plain list',
    'fr:en Java, comment trier une List<Person> par âge puis par nom ?',
    'de:Python: wie lese ich eine CSV mit Semikolon als Trenner in pandas ein?',
    'es:¿cómo hago un debounce en JavaScript sin librerías?',
    'ja:Goでスライスから重複を削除する一番簡単な方法は？',
    'zh:React 里 useEffect 为什么执行了两次？',
    'pt:erro "CORS policy: No \'Access-Control-Allow-Origin\'" no fetch, o que configuro no Express?',
    'ru:как в PostgreSQL сделать upsert по уникальному email?',
    { sys: 'You are a terminal assistant. Reply with the command only.', turns: 'find files bigger than 100MB in home' },
    ['is there a builtin for flattening lists in python?', 'Not a single builtin, but itertools.chain.from_iterable(lists) does it, or a comprehension: [x for sub in lists for x in sub].', 'ok and for arbitrarily nested ones?'],
  ],
  medium: [
    '```rust\nfn parse(input: &str) -> Vec<Token> {\n    let mut out = vec![];\n    let chars: Vec<char> = input.chars().collect();\n    let mut i = 0;\n    while i < chars.len() {\n        if chars[i].is_digit(10) { out.push(Token::Num(chars[i].to_digit(10).unwrap() as i64)); }\n        i += 1;\n    }\n    out\n}\n```\nmulti-digit numbers come out as separate tokens, and I need +-*/ and parentheses too. tests please',
    '```go\nfunc (s *Server) handle(w http.ResponseWriter, r *http.Request) {\n    body, _ := io.ReadAll(r.Body)\n    var req Req\n    json.Unmarshal(body, &req)\n    s.db.Exec("INSERT INTO items VALUES (" + req.Name + ")")\n}\n```\nreview this, then give me the corrected handler',
    'Express middleware that rate-limits per API key with a sliding window in Redis, plus jest tests.',
    '{{code}}\n\nthis works but it\'s slow on 50k rows. make it faster, keep the behaviour',
    '{{log}}\n\nservice crashes on startup after the upgrade. what\'s wrong and what\'s the patch?',
    'Convert this class component to a function component with hooks:\n\n```jsx\nclass Timer extends React.Component {\n  state = { s: 0 };\n  componentDidMount() { this.t = setInterval(() => this.setState({ s: this.state.s + 1 }), 1000); }\n  componentWillUnmount() { clearInterval(this.t); }\n  render() { return <span>{this.state.s}</span>; }\n}\n```',
    'GitHub Actions workflow: lint, test on node 18/20/22 matrix, build docker image on tags only, push to GHCR.',
    'kotlin coroutines: download 20 urls with at most 4 in parallel, retry each twice, collect results in order',
    'SQL migration: split `users.full_name` into first_name/last_name, backfill, keep it reversible (postgres)',
    'Terraform for an S3 bucket with versioning, lifecycle to Glacier after 90 days, and a bucket policy that denies non-TLS.',
    '```haskell\nmyFoldl f z [] = z\nmyFoldl f z (x:xs) = myFoldl f (f z x) xs\n```\nwhy does this blow the stack on big lists and what is the strict version?',
    'elixir genserver that keeps a counter per user and resets every hour',
    { sys: 'You are a code reviewer for a fintech team. Point out bugs first, then style.', turns: '{{code}}' },
    'de:Schreib mir ein Python-Skript, das alle PDFs in einem Ordner zusammenfügt und Lesezeichen pro Datei setzt.',
    'fr:voici mon composant Vue, le v-model ne se met pas à jour quand je change la prop. Pourquoi et comment corriger ?\n\n{{code}}',
    'es:necesito una función en C que invierta una lista enlazada, iterativa y recursiva, con un main de prueba',
    'ja:このSQLが遅いので、インデックスとクエリの書き換えを提案して\n\n{{code}}',
    'zh:用 Go 写一个并发安全的 LRU 缓存，带单元测试',
    'it:ho questo script bash che fallisce con spazi nei nomi dei file, sistemalo\n\n```bash\nfor f in $(ls *.jpg); do convert $f ${f%.jpg}.png; done\n```',
    ['I\'m building a CLI in Rust with clap.', 'Nice. What do you need?', 'subcommands `add`, `list`, `done` for a todo file in ~/.todo.json, with serde. full main.rs'],
  ],
  high: [
    'Design and implement a plugin system for our TypeScript build tool: plugin API, lifecycle hooks, isolation so a broken plugin cannot crash the build, config loading, and tests. Here is the current core:\n\n{{bigcode}}',
    '{{bigcode}}\n\nport this whole service from Express to Fastify, keep every route\'s behaviour, and update the tests',
    'Architecture + code: multi-tenant job queue on Postgres (SKIP LOCKED), priorities, retries with backoff, dead-letter table, metrics, graceful shutdown. Go.',
    'Rewrite our Python 2 billing module for Python 3.12 with type hints, split it into a package, and add tests for every public function:\n\n{{bigcode}}',
    'implement raft leader election + log replication in rust, in-memory transport for tests, with a test that partitions the cluster',
    { sys: 'You are the lead engineer. Produce a migration plan and the code changes.', turns: 'We need to move session storage from sticky in-memory sessions to Redis across our 6 services without downtime.\n\n{{bigcode}}' },
    'de:Entwirf und implementiere eine Ereignis-Sourcing-Schicht für unseren Bestellservice in Kotlin: Events, Projektionen, Snapshots, Wiederaufbau und Tests.',
    'ja:このモノリスをマイクロサービスに分割する設計と、最初のサービスの実装コードを書いてください\n\n{{bigcode}}',
    'pt:refatore todo este código para arquitetura hexagonal, com portas e adaptadores, e mantenha os testes passando\n\n{{bigcode}}',
  ],
};

export const summarization13: FamilyItems = {
  low: [
    'tl;dr\n\n{{doc}}',
    'TL;DR pls\n\n{{email}}',
    '{{doc}}\n\none line: what is this about?',
    'gist?\n\n{{doc}}',
    'Summarise in a tweet:\n\n{{doc}}',
    'headline for this, 8 words max\n\n{{doc}}',
    'fr:résume ce mail en une phrase\n\n{{email}}',
    'de:Zusammenfassung in zwei Sätzen bitte\n\n{{doc}}',
    'es:resumen corto de esto:\n\n{{doc}}',
    'it:riassumi in una riga\n\n{{email}}',
    'ja:この文章を一文で要約して\n\n{{doc}}',
    'zh:用一句话总结：\n\n{{doc}}',
    'nl:vat dit samen in één zin\n\n{{email}}',
    'pl:streść to w dwóch zdaniach\n\n{{doc}}',
    'tr:bunu kısaca özetle\n\n{{doc}}',
    { sys: 'Reply with a single-sentence summary of whatever the user pastes.', turns: '{{email}}' },
    ['Can you help me read some emails quickly?', 'Sure, paste them and tell me how short you want it.', '{{email}}\n\njust the bottom line'],
  ],
  medium: [
    'Here is the transcript of our weekly sync. Meeting notes please: decisions, action items with owners, open questions.\n\n{{pages}}',
    'Write an abstract (150–200 words) for this paper draft:\n\n{{pages}}',
    'executive summary, half a page, for the board:\n\n{{pages}}',
    '{{pages}}\n\nkey takeaways as 5 bullets',
    'I missed this thread. Catch me up — who wants what, and what was agreed?\n\n{{email}}\n\n{{email}}\n\n{{email}}',
    'Condense this into a one-page brief for someone who has never heard of the project:\n\n{{pages}}',
    'Summarise each section of this document in one or two sentences, keep the headings.\n\n{{pages}}',
    'Give me the TL;DR at the top, then a short summary per paragraph.\n\n{{pages}}',
    { sys: 'You are a meeting-minutes bot. Output: Summary, Decisions, Action items (owner, due).', turns: '{{pages}}' },
    { sys: 'You produce abstracts for an academic repository. 200 words, no citations.', turns: '{{pages}}' },
    'fr:fais-moi un compte rendu de cette réunion (décisions, actions, responsables)\n\n{{pages}}',
    'de:Bitte fasse diesen Bericht auf einer halben Seite zusammen, mit den wichtigsten Zahlen.\n\n{{pages}}',
    'es:resume este artículo en unos 200 palabras para el boletín interno\n\n{{pages}}',
    'pt:faça um resumo executivo deste documento em tópicos\n\n{{pages}}',
    'ru:кратко перескажи этот текст, основные мысли списком\n\n{{pages}}',
    'ja:以下の議事録を要約して、決定事項とTODOを箇条書きにしてください\n\n{{pages}}',
    'ko:이 보고서를 한 단락으로 요약해 주세요\n\n{{pages}}',
    ['I\'ll paste a long article about our industry.', 'Go ahead.', '{{pages}}\n\nok, summary for my manager, 150 words, neutral tone'],
  ],
  high: [
    'Summarise this entire report for the executive committee: a one-paragraph TL;DR, then a two-page summary that follows its structure, and the five numbers that matter most.\n\n{{longdoc}}',
    '{{longdoc}}\n\nthis is the full due-diligence pack. I need a faithful condensed version, ~3 pages, section by section, nothing added that isn\'t in the text',
    'Write the abstract, an executive summary and a chapter-by-chapter summary of this thesis:\n\n{{longdoc}}',
    'These are the transcripts of all six workshops. Produce consolidated meeting notes: themes across sessions, decisions, disagreements, and action items.\n\n{{longdoc}}',
    { sys: 'You condense long documents for busy executives. Be faithful; never add facts.', turns: '{{longdoc}}' },
    'de:Fasse das gesamte Dokument kapitelweise zusammen und schreibe am Anfang eine Management-Zusammenfassung von einer Seite.\n\n{{longdoc}}',
    'fr:synthèse complète de ce rapport annuel : résumé d\'une page puis résumé par partie\n\n{{longdoc}}',
    'zh:请把下面这份很长的报告按章节总结，并在开头给出一段总体摘要\n\n{{longdoc}}',
  ],
};

export const research13: FamilyItems = {
  low: [
    'what year was the first transatlantic telegraph cable laid?',
    'population of Lagos, roughly?',
    'who coined the term "machine learning"?',
    'is the Great Barrier Reef visible from space? true or myth',
    'which EU country has the highest minimum wage right now?',
    'when did Norway join NATO?',
    'find out what the current ECB deposit rate is',
    'es:¿quién descubrió la penicilina y en qué año?',
    'de:Wie hoch ist die Zugspitze?',
    'nl:wanneer is de Afsluitdijk gebouwd?',
    'tr:İstanbul\'un nüfusu yaklaşık kaç?',
    'pl:kto wynalazł żarówkę?',
    'ko:한국의 수도는 언제 서울이 되었나요?',
  ],
  medium: [
    'Literature review, short: what do RCTs say about cognitive behavioural therapy for insomnia vs sleeping pills? Cite the main studies.',
    'Market sizing: how big is the European market for e-bikes, growth rate, main players? Give sources.',
    'find out whether four-day work week trials actually improved productivity — what did the UK and Iceland pilots measure?',
    'Compare what the WHO, the CDC and the NHS say about daily salt intake. Where do they differ?',
    'What is known about microplastics in drinking water and health effects? Distinguish solid evidence from speculation.',
    'I need background for a grant proposal: state of the art in battery recycling methods, with references.',
    'Competitive landscape of project-management SaaS for small agencies: who are the players, pricing, positioning.',
    'What do economists say about rent control? Summarise the main empirical findings and the disagreements.',
    'Research question: did the introduction of congestion charging in Stockholm reduce traffic long-term? What do the studies show?',
    'Check the claim "we only use 10% of our brains": where does it come from and what does neuroscience say?',
    { sys: 'You are a research assistant. Always cite sources and say how strong the evidence is.', turns: 'Is remote work associated with lower promotion rates?' },
    'fr:quelles sont les études principales sur l\'effet du télétravail sur la productivité ? cite-les',
    'de:Recherchiere den aktuellen Stand zur Wirksamkeit von Wärmepumpen in Altbauten, mit Quellen.',
    'es:compara las fuentes sobre las causas de la caída del Imperio Romano de Occidente',
    'ja:日本の少子化の主な原因について、研究ではどう言われていますか？出典も',
    'zh:调查一下全球电动汽车市场份额，按地区，并给出数据来源',
    'pt:qual é a evidência científica sobre o jejum intermitente? compare estudos',
    ['I\'m writing an article on urban heat islands.', 'Great topic. What do you need?', 'what does the research say about trees vs cool roofs for reducing temperatures? with sources'],
  ],
  high: [
    'Systematic-style literature review: interventions to reduce hospital readmissions for heart failure. Group by intervention type, summarise effect sizes from meta-analyses, note study quality and gaps. About 3,000 words with references.',
    'Full market research report on the vertical-farming industry: market size and forecasts from different sources (and why they disagree), unit economics, major failures and why, regulation, outlook.',
    'Investigate the evidence on whether social media use causes depression in teenagers: the main cohort studies, experiments, the Haidt–Odgers debate, methodological problems, and what a careful reader should conclude.',
    'Compare the sources below on the causes of the 2021 chip shortage, reconcile where they disagree, and add what else the public record says:\n\n{{longdoc}}',
    { sys: 'You support a policy team. Balanced, sourced, explicit about uncertainty.', turns: 'Prepare a briefing on carbon border adjustment mechanisms: design options, EU CBAM details, trade-law issues, evidence on leakage, and positions of major trading partners.' },
    'de:Erstelle einen ausführlichen Forschungsüberblick zu Grundeinkommen-Experimenten weltweit: Design, Ergebnisse, Kritik, Quellen.',
    'fr:dossier de recherche complet sur l\'énergie nucléaire en Europe : coûts, sécurité, déchets, positions des pays, avec sources',
  ],
};

export const conversation13: FamilyItems = {
  low: [
    'lol that\'s a good one',
    'ok cool',
    'how\'s your day going?',
    'I finally finished my thesis!!',
    'any tips to fall asleep faster? just quick ones',
    'what should I name my new cat, she\'s grey and grumpy',
    'es:jaja gracias, eres un crack',
    'de:na, alles klar bei dir?',
    'ja:今日はちょっと疲れたな',
    'pt:bom dia! tudo bem?',
    ['Thanks for the summary earlier.', 'You\'re welcome! Glad it helped.', 'you\'re the best'],
  ],
  medium: [
    'My coworker keeps taking credit for my work in meetings. How do I handle it without making it weird?',
    'I got two job offers, one pays more, the other has a nicer team. How would you think about it?',
    'I want to get back into running after two years off. How should I start so I don\'t quit again?',
    'My mum keeps sending me news articles I disagree with. How do I talk to her about it kindly?',
    'I\'m a developer and I\'m burnt out. Not looking for code, just want to talk through whether to take a sabbatical.',
    'fr:je me sens un peu seul depuis mon déménagement, tu as des idées pour rencontrer du monde ?',
    'it:il mio capo mi scrive la sera tardi, come faccio a mettere dei limiti senza sembrare scortese?',
    { sys: 'You are a friendly companion app. Be warm and curious.', turns: 'I had a weird day. My presentation went well but I still feel off.' },
  ],
  high: [
    'I\'m 45, thinking of leaving my stable job to start a bakery. Let\'s talk it through properly: money, family, what if it fails, how I\'d know it\'s time. Ask me questions as we go.',
    ['I think my friendship with my oldest friend is ending.', 'That sounds painful. What\'s been happening?', 'She stopped calling, then cancelled three times, then said I\'m "too much". I keep replaying everything. Help me figure out what I actually want, whether to talk to her, and how to live with it if it\'s over.'],
  ],
};

export const extraction13: FamilyItems = {
  low: [
    'what\'s the invoice number?\n\n{{email}}',
    'pull the date of the meeting out of this\n\n{{email}}',
    'just the email addresses from this, one per line\n\n{{doc}}',
    'de:Nur die Bestellnummer, bitte:\n\n{{email}}',
    'fr:donne-moi seulement le montant total\n\n{{email}}',
  ],
  medium: [
    'Not a summary — list every action item in this transcript exactly as stated, with who said it.\n\n{{pages}}',
    'Extract all the dates and what happens on each, as JSON [{date, event}].\n\n{{pages}} #json',
    'Get every product name, price and SKU from this catalogue page into a CSV.\n\n{{pages}}',
    'List the names of every person and company mentioned in these notes, no descriptions.\n\n{{pages}}',
    'es:extrae los datos de contacto de estos correos en una tabla (nombre, empresa, teléfono, email)\n\n{{email}}\n\n{{email}}',
    { sys: 'Return JSON: {"parties": [], "effective_date": "", "termination_clause": ""}. Quote the text; do not paraphrase.', turns: '{{pages}}' },
  ],
  high: [
    'From all these contracts, extract every obligation with party, deadline, penalty and clause number into one table; flag duplicates across documents.\n\n{{longdoc}}',
    'Build a complete structured dataset from this report: every figure, its unit, the year, the region and the sentence it came from.\n\n{{longdoc}}',
  ],
};

export const writing13: FamilyItems = {
  low: [
    'Rewrite this sentence so it\'s less stiff: "Please be advised that the meeting has been rescheduled."',
    'make this friendlier, same length:\n\n{{email}}',
    'subject line for an email announcing our office move',
    'write a two-line bio for a conference badge: backend engineer, likes climbing',
    'fr:reformule plus poliment : « envoie-moi le fichier maintenant »',
    'de:Formuliere das professioneller: "wir haben\'s verbockt, sorry"',
  ],
  medium: [
    'Rewrite this paragraph in a more engaging tone for our blog — don\'t shorten it, I need the same content:\n\n{{doc}}',
    'Turn these bullet points into a proper cover letter for a data analyst role:\n- 3 years SQL\n- built dashboards\n- moved from teaching',
    'Write a README intro section for our open-source library (what it is, why, who for). Prose only, no code.',
    'Draft a LinkedIn post about our team winning a hackathon, 150 words, not cringe.',
    'Edit this for grammar and flow, keep my voice:\n\n{{doc}}',
    'es:escribe un correo a un cliente explicando un retraso de dos semanas, tono profesional y empático',
    'ja:新製品の紹介文を書いてください。300字くらいで、親しみやすく',
  ],
  high: [
    'Write a 3,000-word long-form feature article on how small towns are reinventing their high streets, with scenes, interviews (invented but plausible, marked as illustrative), and a strong ending.',
    'Rewrite this whole document in plain English for a general audience, keeping every point and its length roughly the same:\n\n{{longdoc}}',
  ],
};

export const dataAnalysis13: FamilyItems = {
  low: [
    'which month had the highest revenue?\n\n{{csv}}',
    'average order value from this table?\n\n{{csv}}',
    'fr:quel produit se vend le moins ?\n\n{{csv}}',
  ],
  medium: [
    '{{midcsv}}\n\nwhat trends do you see? anything weird?',
    'Is the difference between these two groups significant? Data:\n\n{{csv}}',
    'Segment these customers by behaviour and describe each segment:\n\n{{midcsv}}',
    'de:Was sagen diese Verkaufszahlen über die Saisonalität aus?\n\n{{midcsv}}',
  ],
  high: [
    'Full analysis of this churn dataset: descriptive stats, cohort retention, drivers of churn with effect sizes, caveats, and recommendations. Explain in words; tables welcome.\n\n{{longcsv}}',
    '{{longcsv}}\n\nbuild a forecast for next quarter by region, explain the method, the uncertainty and what could break it',
  ],
};

export const math13: FamilyItems = {
  low: [
    '17% of 2,340?',
    'derivative of x^3 * ln x',
    'es:¿cuánto es 3/8 en porcentaje?',
    'de:Was ist die Wurzel aus 2 auf drei Nachkommastellen?',
  ],
  medium: [
    'Solve the system 2x + 3y - z = 5, x - y + 2z = 3, 3x + y + z = 10, showing the steps.',
    'A loan of 200,000 at 4.5% over 25 years: monthly payment and total interest, worked out.',
    'fr:calcule la probabilité d\'obtenir au moins deux six en lançant cinq dés, étape par étape',
  ],
  high: [
    'Prove that every finite group of prime order is cyclic, then generalise: classify groups of order p² with proof.',
    'Derive the closed form of the Fibonacci numbers with generating functions, prove it by induction, and bound the error of rounding φ^n/√5.',
  ],
};

export const translation13: FamilyItems = {
  low: [
    'translate to German: "the build is green, ship it"',
    '"thank you for your patience" in Japanese, polite',
    'es:traduce al inglés: «nos vemos el lunes en la oficina»',
  ],
  medium: [
    'Translate this email into French, keep the formatting and the polite tone:\n\n{{email}}',
    'Translate the UI strings below into Spanish and Portuguese (Brazil), as JSON with the same keys:\n\n{"save":"Save","cancel":"Cancel","delete_confirm":"Delete this item? This cannot be undone."} #json',
    'de:Übersetze diesen Absatz ins Englische, möglichst natürlich:\n\n{{fdoc}}',
  ],
  high: [
    'Translate this full document into German for publication: keep headings, terminology consistent throughout, and add a glossary of the terms you chose.\n\n{{longdoc}}',
    'Localise our whole help centre article set into Japanese (keigo for the customer-facing parts), noting any cultural adaptations:\n\n{{longdoc}}',
  ],
};
