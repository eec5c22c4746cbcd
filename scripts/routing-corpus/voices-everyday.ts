// Sixth batch: everyday phrasings ("I need…", "could you…", "is there a way…", lowercase, typos,
// emoji, mixed languages), written to widen the wording of every cell. Same notation as coding.ts.
import type { FamilyItems } from './types.ts';

export const coding6: FamilyItems = {
  low: [
    'is there a way to undo git stash pop',
    'I need the css to make an image round',
    'could you tell me how to check which python version pip uses?',
    'quick q — how do i clone a repo into a specific folder',
    'my python says IndentationError: unexpected indent, what does that mean 😅',
    'fr:comment on fait un for each en javascript déjà ?',
  ],
  medium: [
    'I need a small Flask app that lets people upload a CSV and shows it as an HTML table, with size limits and error messages.',
    'could you write a Chrome extension that counts how long I spend on each website per day and shows it in the popup?',
    'is there a clean way to share types between my Next.js frontend and my Express backend? show me a setup',
    'help!! my docker container exits right after starting, here is the Dockerfile:\n\n{{code}}',
    'I need to paginate a Postgres query with 10M rows efficiently. Show keyset pagination with an example and explain why OFFSET is slow.',
    'de:ich brauche ein python-skript, das jeden morgen das wetter von einer api holt und mir eine e-mail schickt',
  ],
  high: [
    'I need to build the whole backend for a ride-sharing MVP in 6 weeks: matching, pricing, trips, payments, ratings, admin. Please design it end to end and write the core services, with the trade-offs we should accept for an MVP.',
    'could you go through our entire codebase below and turn it into a well-tested, documented library with a stable public API? explain every change\n\n{{bigcode}}',
    'Is there a way to make our Python data pipeline 10x faster? It\'s below. Profile it mentally, find the bottlenecks, propose a redesign (vectorisation, multiprocessing, maybe Rust via PyO3), and rewrite the hot parts.\n\n{{bigcode}}',
    'es:necesito diseñar toda la arquitectura de una app bancaria móvil: seguridad, autenticación biométrica, sincronización offline, notificaciones y cumplimiento normativo, con código de ejemplo de las partes críticas',
  ],
};

export const writing6: FamilyItems = {
  low: [
    'i need a cute name for my sourdough starter lol',
    'could you make this sound less rude: "stop sending me these emails"',
    'help me say no to a wedding invite nicely, one or two lines',
    'is "irregardless" a real word? can i use it in my essay?',
    'a short caption for a pic of my grandma\'s 90th birthday cake 🎂',
    'it:mi scrivi una frase carina per il biglietto di un regalo di Natale?',
  ],
  medium: [
    'I need a welcome speech for our school\'s open day, around 3 minutes, for parents of new pupils.',
    'could you write a funny but kind roast of my best friend for her 30th? she\'s always late and obsessed with her cat',
    'help me write an email to my professor asking for an extension on my paper because I was sick, polite and not too long',
    'write me a bedtime story about a dragon who is afraid of the dark, for a 5 year old',
    'I need a product description for handmade ceramic mugs for my Etsy shop, warm and a bit quirky',
    'ru:помоги написать письмо соседям о том, что во дворе будет субботник, дружелюбно',
  ],
  high: [
    'I need the complete text for our nonprofit\'s annual appeal campaign: a long-form donor letter, a landing page, 5 emails, social posts, and a thank-you series, all telling one story.',
    'could you write a full 15-minute keynote for a women-in-tech conference about career pivots, with stories, structure, and speaker notes?',
    'help me write my memoir\'s first chapter (about 4,000 words) about growing up above my parents\' restaurant, from these notes:\n\n{{longdoc}}',
    'pt:preciso do roteiro completo de um documentário de 30 minutos sobre a história do samba, com narração, entrevistas sugeridas e estrutura de cenas',
  ],
};

export const research6: FamilyItems = {
  low: [
    'what year did the titanic sink',
    'is a whale a fish or a mammal?',
    'could you tell me who the first president of the US was',
    'how long is a marathon in km',
    'what language do they speak in belgium',
    'ja:エベレストの高さは？',
  ],
  medium: [
    'I need to understand how the stock market actually works, like what happens when I buy a share?',
    'could you explain what causes the northern lights and where to see them best?',
    'is there good evidence that cold showers are healthy? what do studies say',
    'why did the dinosaurs go extinct but birds survived?',
    'help me understand the main differences between capitalism and socialism, fairly',
    'fr:c\'est quoi exactement l\'inflation et pourquoi les prix ont autant augmenté depuis 2021 ?',
  ],
  high: [
    'I need a thorough, balanced review of the evidence on nuclear fusion: where the main projects stand (ITER, NIF, private startups), the physics and engineering hurdles, realistic timelines, and what experts disagree on.',
    'could you do a deep comparison of how Finland, Singapore and Canada achieve strong school results: teacher training, curriculum, equity, funding, and what other countries failed to copy and why?',
    'help me research the full history and consequences of the 1918 flu pandemic, comparing public-health responses across cities and what they teach us, with sources.',
    'de:ich brauche eine gründliche Recherche zum Stand der Forschung über Mikroplastik im Trinkwasser: Messmethoden, Befunde, Gesundheitsrisiken, Regulierung und offene Fragen',
  ],
};

export const dataAnalysis6: FamilyItems = {
  low: [
    'which month was best?\n\n{{csv}}',
    'could you give me the min and max of each column?\n\n{{csv}}',
    'is there a quick way in excel to remove duplicate rows?',
    'what % of the total does the north region make?\n\n{{csv}}',
    'zh:这张表的总和是多少？\n\n{{csv}}',
  ],
  medium: [
    'I need to understand why our churn went up, here is the data, what do you see?\n\n{{csv}}',
    'could you analyse this and tell me which students need extra help and why?\n\n{{csv}}',
    'help me make sense of this latency data before my on-call handover\n\n{{csv}}',
    'is our ad spend efficient? here are the numbers\n\n{{csv}}',
    'es:necesito entender estos datos de encuestas, ¿qué conclusiones sacas?\n\n{{csv}}',
  ],
  high: [
    'I need a complete analysis of our two years of sales data to decide where to open the next store: demand by area, customer travel patterns, cannibalisation risk, and a ranked shortlist with the reasoning.\n\n{{longcsv}}',
    'could you set up a full statistical analysis for our clinical pilot: hypotheses, power, mixed-effects model for repeated measures, handling dropouts, and the R code, then explain how to report it?',
    'ja:2年分のアクセスデータをすべて分析して、離脱の原因、セグメント別の傾向、改善施策の優先順位を詳しく出してください。\n\n{{longcsv}}',
  ],
};

export const math6: FamilyItems = {
  low: [
    'what\'s 15% tip on 64 dollars',
    'how many minutes are in 3.5 hours?',
    'could you convert 1.75 metres to feet and inches?',
    'is 1001 divisible by 7?',
    'what\'s the square of 35',
    'fr:combien font 12 % de 250 ?',
  ],
  medium: [
    'I need help understanding how to solve 3x + 2 = 5x - 8, step by step, I\'m bad at algebra',
    'could you explain how compound interest works with an example of 1000 euros at 3% for 10 years?',
    'help me find the probability of drawing two aces in a row from a deck without replacement, with the reasoning',
    'my kid\'s homework: a rectangle has perimeter 36 and area 80, what are its sides? please explain simply',
    'is there a simple way to calculate the angle between two vectors? show it with (1,2) and (3,1)',
    'de:kannst du mir erklären, wie man die Nullstellen von x² - 2x - 8 berechnet, Schritt für Schritt?',
  ],
  high: [
    'I need a complete proof that the square root of any prime is irrational, and then a proof that log base 2 of 3 is irrational.',
    'could you prove that there are exactly five Platonic solids, using Euler\'s formula, with every step?',
    'help me prove that the determinant of a product of matrices is the product of determinants, rigorously, from the definition',
    'it:mi serve una dimostrazione completa del teorema fondamentale del calcolo integrale, con tutte le ipotesi e i passaggi',
  ],
};

export const summarization6: FamilyItems = {
  low: [
    'i need the short version of this\n\n{{doc}}',
    'could you sum this up in one line for a slack message?\n\n{{doc}}',
    'whats the main point here\n\n{{email}}',
    'too long 😩 summary pls\n\n{{doc}}',
    'es:dame el resumen en una frase\n\n{{doc}}',
  ],
  medium: [
    'I need a summary of this article I can send to my team, with the key numbers\n\n{{doc}}\n\n{{doc}}',
    'could you summarize these notes into a clean recap email?\n\n{{doc}}\n\n{{doc}}',
    'help me understand the key points of this long email chain before my meeting\n\n{{email}}\n\n{{email}}\n\n{{email}}',
    'summarise this interview for my research notes: themes and quotes\n\n{{doc}}\n\n{{doc}}',
    'ru:сделай выжимку из этой статьи, пунктов на пять\n\n{{doc}}\n\n{{doc}}',
  ],
  high: [
    'I need a full summary of this very long report for my boss: overview, each section, all numbers, and what we should decide.\n\n{{longdoc}}',
    'could you summarize the whole book draft chapter by chapter and then overall, with themes and weak spots?\n\n{{longdoc}}',
    'help me digest this giant policy document: layered summary and a list of what changes for us\n\n{{longdoc}}',
  ],
};

export const translation6: FamilyItems = {
  low: [
    'how do i say "where is the bathroom" in german',
    'could you translate "happy new year" into japanese?',
    'what does "mañana" really mean, just tomorrow?',
    'need this in french pls: "see you at the station at 6"',
    'zh:“不客气”的英文是什么？',
  ],
  medium: [
    'I need this letter translated into Spanish for my host family:\n\n{{doc}}',
    'could you translate these instructions into Polish for our cleaner?\n\n{{doc}}',
    'help me translate my restaurant menu descriptions into English\n\n{{fdoc}}',
    'translate this review from German to English please\n\n{{fdoc}}',
    'ko:이 이메일을 영어로 번역해 주세요\n\n{{fdoc}}',
  ],
  high: [
    'I need our whole employee safety manual translated into Spanish and Portuguese, consistent terminology, keep all headings and warnings\n\n{{longdoc}}',
    'could you translate the entire short story into German, keeping the humour, with notes on the puns?\n\n{{longdoc}}',
    'help me translate our full research report into English for an international journal, with a glossary\n\n{{longdoc}}',
  ],
};

export const extraction6: FamilyItems = {
  low: [
    'i need just the phone number from this\n\n{{email}}',
    'could you tell me the due date on this invoice?\n\n{{email}}',
    'what\'s the tracking number in here\n\n{{email}}',
    'positive or negative: "meh, it works I guess"',
    'it:qual è il totale di questa ricevuta?\n\n{{email}}',
  ],
  medium: [
    'I need all the contact details from these emails in a table: name, company, email, phone\n\n{{email}}\n\n{{email}}',
    'could you turn this receipt into JSON with items and prices?\n\n{{email}} #json',
    'help me pull out every date and what happens on it from this text\n\n{{doc}}\n\n{{doc}}',
    'tag each of these comments with a topic and a sentiment: "too pricey", "love the colours", "arrived broken", "fast delivery", "size runs small"',
    'ja:この請求書から会社名、金額、支払期日を抜き出してJSONにしてください\n\n{{email}} #json',
  ],
  high: [
    'I need every obligation and deadline from this whole contract in a structured list with clause numbers and quotes\n\n{{longdoc}}',
    'could you extract all people, companies and the relationships between them from this huge set of articles, merging duplicates?\n\n{{longdoc}}',
    'help me turn this entire messy export into clean structured records (JSON), and tell me which entries you could not parse\n\n{{longdoc}} #json',
  ],
};

export const conversation6: FamilyItems = {
  low: [
    'heyyy 👋',
    'could you just say hi back, I\'m testing this thing',
    'i\'m so tired lol',
    'what are you up to?',
    'haha good one',
    'ja:ありがとう、助かった！',
  ],
  medium: [
    'I need some advice, my flatmate and I keep arguing about the heating bill',
    'could you help me figure out how to tell my parents I\'m dropping out of law school?',
    'I feel like I\'m always the one making an effort in my friendships. is that normal?',
    'help, I have a job interview tomorrow and I can\'t stop panicking',
    'is it normal to miss my old job even though I hated it?',
    'zh:我不知道怎么拒绝同事的请求，总是答应然后自己很累，怎么办？',
  ],
  high: [
    'I need to think through whether to move in with my partner who has two kids from a previous marriage. I love him but I\'ve never lived with children, I\'d be leaving my city, and my friends are worried. can you go through all of it with me properly?',
    'could you help me prepare, in depth, for telling my family I\'m leaving the family business to start my own? my father built it and expects me to take over. I want to handle it with respect and be clear.',
    'fr:j\'ai besoin de réfléchir sérieusement à mon couple : on ne se parle plus, on a deux enfants, je ne sais pas si je veux rester. Aide-moi à faire le point en profondeur, sans me juger.',
  ],
};
