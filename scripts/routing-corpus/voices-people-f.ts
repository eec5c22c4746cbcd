// Seventh batch, sixth part: same author as voices-people-a.ts. The shortest requests (a word or
// two and a paste), requests that ask for a format (table, JSON, bullets, a word limit) while the
// work is something else, the task only in an app's system prompt, and people who explain why
// they need it before saying what it is. Same notation as coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const coding10: FamilyItems = {
  low: [
    'explain this line: [x for x in range(10) if x % 2]',
    '{{code}}\n\nsyntax error somewhere?',
    { sys: 'Reply with a single SQL query, no prose.', turns: 'users who signed up this month and have not logged in since' },
    'For a school project I need to know: how do you comment out several lines at once in Python?',
    'es:¿qué significa "segmentation fault"?',
    'lint this and tell me what is wrong, short list:\n\nlet x = 1\nif (x = 2) { console.log("two") }',
  ],
  medium: [
    { sys: 'You write small, complete utilities. Include usage instructions.', turns: 'a command-line tool that renames photos by the date they were taken, from EXIF, with a dry-run option' },
    'Because our designer left, I have to make the site\'s navigation work on phones. Here is the HTML and CSS, please add a hamburger menu that works without a library:\n\n{{code}}',
    'Return a table comparing three ways to do background jobs in our Rails app (Sidekiq, GoodJob, Solid Queue), then write the setup for the one you pick.',
    'add input validation and proper error responses to this endpoint, then show a test for each error case:\n\n{{code}}',
    'fr:écris une petite API en FastAPI pour gérer une liste de tâches (CRUD) avec SQLite et des tests',
    'Write a Google Apps Script that copies new form responses into a second sheet and emails the team lead when a response says "urgent".',
  ],
  high: [
    { sys: 'You are the lead engineer of a fintech startup. Answer with architecture, code and a rollout plan.', turns: 'Move our ledger from a single Postgres to a sharded setup without downtime, keeping double-entry invariants checked at all times.' },
    'Since our last outage, management wants everything observable. Design the full observability stack for our 60 services (metrics, logs, traces, SLOs, alerting, on-call), and write the instrumentation library our services will share.',
    'Write a complete chess engine in C++: board representation, move generation with all rules, alpha-beta search with transposition tables, UCI protocol, and perft tests.',
    'ko:대규모 채팅 서비스의 백엔드를 설계하고 핵심 코드를 작성해 주세요. 메시지 저장, 읽음 표시, 푸시 알림, 수평 확장, 장애 복구를 포함해서요.',
  ],
};

export const writing10: FamilyItems = {
  low: [
    { sys: 'You write product names. Give five options, nothing else.', turns: 'a reusable water bottle that tracks how much you drink' },
    'Because I am shy I never know what to write in birthday cards. My aunt turns 70. One or two lines?',
    'alt text for a photo of a golden retriever catching a frisbee on a beach',
    'make it rhyme: "Thanks for the help with the move, the pizza is on me"',
    'ja:ブログ記事のタイトルを考えて。テーマは一人暮らしの節約術。',
    'A tagline for a bicycle repair café, in under 8 words.',
  ],
  medium: [
    { sys: 'You write for a hospital\'s patient newsletter: plain, kind, no jargon.', turns: 'an article introducing our new volunteer drivers who take patients to appointments, about 400 words' },
    'Because our usual copywriter is on holiday, I need the text for our spring sale email: subject line, preheader, and about 150 words of body.',
    'Write a short fable, in the style of Aesop, about a clock that wanted to stop time. End with a moral.',
    'Write 10 interview questions and a short intro paragraph for our company blog\'s "meet the team" series.',
    'de:schreib einen Blogartikel über die Vorteile von Lastenrädern für Familien, etwa 600 Wörter, locker',
    'Give me the text for a one-page flyer for a free community tax help day: headline, who it is for, what to bring, where and when.',
  ],
  high: [
    { sys: 'You are a novelist\'s writing partner. Produce full drafts, not outlines, unless asked.', turns: 'Chapter 7: the two brothers finally meet at their father\'s empty house. About 4,000 words, tense, with the storm building outside.' },
    'Write a complete training manual for new volunteers at our food bank: welcome, how the food bank works, each role, safety, dignity and respect, difficult situations, FAQs.',
    'Write the full script for our 45-minute museum audio tour (12 stops), with a narrator voice and short quotes from the artists\' letters.',
    'fr:écris une nouvelle complète d\'environ 6 000 mots sur une cheffe d\'orchestre qui perd l\'ouïe, avec une structure en trois mouvements',
  ],
};

export const research10: FamilyItems = {
  low: [
    { sys: 'You answer trivia for a quiz app. One short sentence.', turns: 'Which element has the chemical symbol Fe?' },
    'For a crossword: the capital of Mongolia?',
    'when did the euro start being used as cash',
    'zh:长城有多长？',
    'What is the speed of sound in air?',
    'Who was the first woman to win a Nobel Prize?',
  ],
  medium: [
    { sys: 'You are a history tutor. Explain causes and consequences with dates.', turns: 'the partition of India in 1947' },
    'Because my son is starting at a Montessori school, I want to understand: what is the evidence that Montessori education works better than regular schooling?',
    'How do noise-cancelling headphones work, and is there any research about whether they harm hearing or balance?',
    'ko:커피가 건강에 좋은지 나쁜지, 최근 연구 결과를 정리해 주세요.',
    'What do we actually know about how octopuses think? Summarize the main findings about their intelligence.',
    'Explain why the 2008 financial crisis started in the US housing market, with the main mechanisms.',
  ],
  high: [
    { sys: 'You write systematic evidence summaries for a health agency: question, search scope, findings by outcome, certainty of evidence, gaps.', turns: 'Effectiveness of school-based mental health programmes for adolescents.' },
    'I am writing a book on the history of timekeeping. Give me a deep, sourced account of how standard time zones came to be, including railways, the 1884 Meridian Conference, and resistance in different countries.',
    'Analyse the research on whether homework improves learning at different ages, including the major meta-analyses, their disagreements, and what the best-designed studies show.',
    'it:fai una ricerca approfondita sulle cause dello spopolamento dei paesi dell\'Appennino e sulle politiche che hanno funzionato in Italia e all\'estero',
  ],
};

export const dataAnalysis10: FamilyItems = {
  low: [
    { sys: 'You answer questions about the table the user pastes. One number or one sentence.', turns: '{{csv}}\n\nhighest total?' },
    '{{csv}}\n\nsum of the second column?',
    'Because my boss asked, quickly: from these numbers, what is the growth from Q1 to Q4? Q1 240, Q2 255, Q3 270, Q4 310',
    'ko:이 표에서 평균 점수가 가장 높은 반은?\n\n{{csv}}',
    'Is this distribution skewed? 2, 3, 3, 4, 4, 4, 5, 5, 15, 40',
    'share of each category in percent please:\n\n{{csv}}',
  ],
  medium: [
    { sys: 'You are a BI assistant. Return a short table of results and three bullet points of interpretation.', turns: '{{midcsv}}\n\nrevenue by region and quarter' },
    'Because we are deciding our opening hours, look at the footfall counts per hour below and tell me when it makes sense to open and close.\n\n{{midcsv}}',
    'Compute the retention for each monthly cohort in this table and tell me whether newer cohorts retain better:\n\n{{csv}}',
    'Here are my monthly spending categories for a year. Where has my spending grown the most and what looks unusual?\n\n{{csv}}',
    'zh:分析这份问卷数据，不同年龄段对新产品的满意度有没有显著差异？\n\n{{csv}}',
    'Look at the defect counts per production line and shift, and tell me if the night shift really has more defects:\n\n{{csv}}',
  ],
  high: [
    { sys: 'You are a quantitative analyst. Produce a full report: data checks, methods, results with uncertainty, and decisions they support.', turns: 'Evaluate whether our regional price experiment changed demand, using the weekly data below.\n\n{{longcsv}}' },
    'Because the council wants evidence before expanding the scheme, analyse three years of bike-share trips: usage patterns, effect of weather and new stations, equity across neighbourhoods, and a forecast for 20 new stations.\n\n{{longcsv}}',
    'Analyse these insurance claims end to end: claim frequency and severity by segment, trends, fraud indicators, and a pricing recommendation backed by a model.\n\n{{longcsv}}',
    'ko:3년치 온라인 쇼핑몰 데이터를 종합적으로 분석해 주세요: 매출 추세, 고객 세분화, 재구매 요인, 이탈 예측 모델과 개선 방안까지요.\n\n{{longcsv}}',
  ],
};

export const math10: FamilyItems = {
  low: [
    { sys: 'You check arithmetic. Reply "correct" or give the right answer.', turns: '348 × 27 = 9,296' },
    'Because I forgot: what is the formula for the area of a trapezoid?',
    'ko:3의 4제곱은?',
    'is 0 even or odd',
    'simplify 18/24',
    'What is the sum of the angles in a pentagon?',
  ],
  medium: [
    { sys: 'You are a statistics tutor. Work the problem step by step, then state the answer.', turns: 'Heights are normally distributed with mean 170 cm and SD 8 cm. What share of people are taller than 185 cm?' },
    'Because I want to check my bank\'s offer: 10,000 at 3% compounded quarterly for 6 years versus 3.1% compounded yearly. Which is better, and by how much? Show the working.',
    'A farmer has 100 m of fence and wants a rectangular pen against a barn wall (no fence on that side). What dimensions give the biggest area? Explain.',
    'Show that the function f(x) = x^3 - 3x + 1 has three real roots and approximate one with two steps of Newton\'s method.',
    'zh:一个袋子里有3个红球和2个白球，不放回地取两次，求两次都是红球的概率，并写出过程。',
    'Convert 0.272727... to a fraction and explain why the method works.',
  ],
  high: [
    { sys: 'You are a maths lecturer. Write complete, rigorous solutions suitable for a graded problem set.', turns: 'Show that every bounded monotone sequence of real numbers converges, then use it to prove that (1 + 1/n)^n converges.' },
    'Because I teach a proof course, I need a complete proof that the rationals are dense in the reals and that the irrationals are too, with each step justified from the axioms of an ordered field and the Archimedean property.',
    'Derive the closed form of the Fibonacci numbers by three methods (generating functions, linear algebra, characteristic equation) and prove that consecutive Fibonacci numbers are coprime.',
    'ko:리만 적분 가능한 함수의 정의를 설명하고, 연속함수가 닫힌 구간에서 적분 가능함을 엄밀하게 증명해 주세요.',
  ],
};

export const summarization10: FamilyItems = {
  low: [
    { sys: 'You write one-line summaries for an email client\'s preview. Max 15 words.', turns: '{{email}}' },
    'summary pls\n\n{{email}}',
    'Because I have to reply fast: what is he asking for, in a sentence?\n\n{{email}}',
    'ko:이 글을 한 줄로 요약해 줘\n\n{{doc}}',
    '{{doc}}\n\none-line takeaway',
    'headline + one sentence for this:\n\n{{doc}}',
  ],
  medium: [
    { sys: 'You produce summaries as exactly five bullet points, each under 20 words.', turns: '{{pages}}' },
    'Because our team reads on mobile, summarize this policy document in a short table: topic, what changes, who is affected.\n\n{{pages}}',
    'Summarize the chat log below: what problem the customer had, what was tried, and how it ended.\n\n{{pages}}',
    '{{pages}}\n\nGive me a 100-word abstract of the above for the conference programme.',
    'it:riassumi questo verbale in mezza pagina con le decisioni prese\n\n{{pages}}',
    'Summarize this research article for a general audience in about 200 words, keep the main numbers:\n\n{{pages}}',
  ],
  high: [
    { sys: 'You summarize long documents into a structured brief: overview, section-by-section summary, key figures, risks, open questions.', turns: '{{longdoc}}' },
    'Because I start as the new project manager on Monday, summarize the whole project history below: what was planned, what changed and why, the current status, and the decisions still open.\n\n{{longdoc}}',
    'Summarize every chapter of this report and then write one overall summary that connects them, about 1,500 words in total.\n\n{{longdoc}}',
    'ko:아래의 긴 회의록 전체를 요약해 주세요. 안건별 요약, 결정 사항, 미해결 과제로 나눠서요.\n\n{{longdoc}}',
  ],
};

export const translation10: FamilyItems = {
  low: [
    { sys: 'You translate into Spanish. Output only the translation.', turns: 'The store opens at nine.' },
    'Because my mother-in-law is Korean: how do I say "the food is delicious" in Korean?',
    'en español: "¿dónde está el baño?" means what?',
    'it:come si dice "buon appetito" in tedesco?',
    'translate: "merci beaucoup pour tout"',
    'Japanese for "good luck with the exam"?',
  ],
  medium: [
    { sys: 'You localize marketing copy into German for Germany. Keep brand names in English.', turns: '{{doc}}' },
    'Because our guests come from France and Italy, please translate the house rules of our holiday flat into both languages:\n\n{{doc}}',
    'Translate these three customer reviews from Spanish into English and keep the tone of each one:\n\n{{fdoc}}',
    '{{email}}\n\ntranslate into Japanese, polite business style',
    'ko:이 안내문을 영어로 자연스럽게 번역해 주세요.\n\n{{doc}}',
    'Translate the menu below into English, explaining dishes that have no direct translation in brackets:\n\n{{fdoc}}',
  ],
  high: [
    { sys: 'You are a legal translator. Translate the full document faithfully, keep numbering, and add a table of terms with no exact equivalent.', turns: '{{longdoc}}' },
    'Because we are listing on a foreign exchange, translate our entire prospectus into English with consistent financial terminology and a glossary:\n\n{{longdoc}}',
    'Translate this full-length play into French, keeping it performable: natural dialogue, songs adapted to rhyme, and notes for the director on cultural changes.\n\n{{longdoc}}',
    'it:traduci in inglese l\'intero manuale di qualità dell\'azienda, mantenendo la terminologia ISO coerente e creando un glossario\n\n{{longdoc}}',
  ],
};

export const extraction10: FamilyItems = {
  low: [
    { sys: 'Extract the requested value. Reply with the value only.', turns: 'customer number\n\n{{email}}' },
    'Because I need to file it: what is the reference number in this letter?\n\n{{doc}}',
    'names only:\n\n{{email}}',
    'ko:이 이메일에서 날짜와 시간만 알려줘\n\n{{email}}',
    'emails from this please\n\n{{doc}}',
    'What price is mentioned for the premium plan? "Basic is 9 a month, Premium is 19 a month, billed yearly."',
  ],
  medium: [
    { sys: 'Turn the user\'s text into CSV with the header name,date,amount. Output CSV only.', turns: '{{pages}}' },
    'Because I am moving our recipes into an app, extract from each recipe below: title, servings, ingredients with quantities, and cooking time, as JSON. #json\n\n{{pages}}',
    'List every person quoted in this article, what they said (short), and their role.\n\n{{pages}}',
    '{{email}}\n\n{{email}}\n\ncollect the open questions from these emails and who asked each',
    'it:estrai dal contratto le date di inizio e fine, il canone, le penali e le condizioni di recesso\n\n{{pages}}',
    'Pull all addresses out of the text below and split them into street, city, postcode and country.\n\n{{pages}}',
  ],
  high: [
    { sys: 'You build structured datasets from long documents. Output JSON Lines, one record per entity, with a source reference for every field.', turns: '{{longdoc}}' },
    'Because we are merging two companies, extract from all these employment contracts: name, role, start date, salary, notice period, non-compete terms and bonus clauses, and list the contracts with unusual terms.\n\n{{longdoc}}',
    'From this entire court judgment, extract the parties, the judges, every cited statute and precedent with the paragraph, the holdings, and the orders made.\n\n{{longdoc}}',
    'ko:아래 전체 보고서에서 모든 수치 데이터(지표명, 값, 단위, 기간)를 추출해서 표로 정리해 주세요.\n\n{{longdoc}}',
  ],
};

export const conversation10: FamilyItems = {
  low: [
    { sys: 'You are Sunny, a friendly chat companion. Keep replies short and warm.', turns: 'hey sunny, guess who finally cleaned their room' },
    'what should I have for dinner, im so hungry',
    'Because it is raining again, tell me something cheerful.',
    'ko:안녕! 오늘 기분 어때?',
    'that\'s hilarious 😂',
    'I love this song, do you have a favourite?',
  ],
  medium: [
    { sys: 'You are a kind, practical friend. Give advice like a friend would, not a list of generic tips.', turns: 'my girlfriend wants to move in together after 6 months and I am not sure I am ready. how do I tell her without hurting her?' },
    'Because I start a new job on Monday, I am really nervous. How do I make a good impression in the first week?',
    'I always compare myself to my friends on Instagram and feel bad. How do you stop doing that?',
    'My mum wants me to call every day and I feel smothered, but I do not want to hurt her. What can I do?',
    'it:mi sento sempre stanco anche se dormo otto ore, che cosa potrei cambiare nella mia routine?',
    'How do I make friends at university when everyone already seems to have their group?',
  ],
  high: [
    { sys: 'You are a counselling-style assistant. Listen first, reflect back, help the user think through complex personal situations over several turns.', turns: 'My husband wants to move back to his home country to care for his parents. I would have to leave my career, my friends and my language. We have a 3-year-old. I love him but I do not know if I can do it.' },
    'Because my brother is an addict and has stolen from our parents again, the family is split on whether to cut him off. I am the one everyone calls. Help me think through what is right for everyone, including me.',
    'I have just been diagnosed with MS at 31. I am scared about my job, my relationship and whether to have kids. Can you help me sort through everything that is in my head right now?',
    'ko:10년 다닌 회사를 그만두고 부모님 가게를 물려받을지 고민 중이에요. 아내는 반대하고, 부모님은 기대하고 계세요. 여러 측면에서 같이 깊이 생각해 주세요.',
  ],
};
