// Seventh batch, fifth part: same author as voices-people-a.ts. Requests on the borders that the
// grouped cross-validation of the training split confuses (data-analysis written as code, writing
// and research asked like a chat, summarization next to extraction, translation next to writing),
// each labelled by what the person wants done, and short requests in the less common languages.
// Same notation as coding.ts.
import type { FamilyItems } from './types.ts';

export const coding9: FamilyItems = {
  low: [
    'pandas: how do I drop rows where the "email" column is empty',
    'SQL to count orders per customer',
    'in R, how do I read a csv with semicolons',
    'How do I make matplotlib show the y axis as percentages?',
    'sv:hur skriver man en if-sats i bash?',
    'What is a good name for a function that checks if a user can edit a post?',
  ],
  medium: [
    'Write the pandas code that loads sales.csv, fills missing prices with the product median, and writes a cleaned file. I only need the code, not the analysis.',
    'Write a SQL view that joins orders, customers and products and exposes monthly revenue per country, with indexes that make it fast.',
    'Build me an Airflow DAG that pulls yesterday\'s data from our API, loads it into BigQuery, and alerts Slack on failure.',
    'Write a Jupyter-friendly Python class that wraps our REST API (auth, pagination, retries) so analysts can use it.',
    'nl:schrijf een python-script dat alle pdf-bestanden in een map samenvoegt tot één bestand, gesorteerd op naam',
    'Document this module: add docstrings to every function and a README section on how to use it.\n\n{{code}}',
  ],
  high: [
    'Build our analytics platform\'s ingestion layer: connectors for Stripe, HubSpot and Postgres, incremental loads, schema change handling, and a dbt project skeleton with tests. Write the code and explain the structure.',
    'Write a full feature store service: offline and online stores, point-in-time correct joins, a Python SDK, and tests.',
    'sv:designa och skriv ett komplett system för att hantera lagersaldo i flera butiker, med API, databas och tester',
    'Design and implement a static analyser for our Python codebase that detects SQL injection risks, with a plugin API and CI integration.',
  ],
};

export const writing9: FamilyItems = {
  low: [
    'can you make my message to the group chat sound less passive aggressive: "fine, I guess I will do it myself again"',
    'Write a one-line thank-you to my neighbour for watering my plants.',
    'tr:doğum günü için kısa ve komik bir mesaj yazar mısın, arkadaşım 40 oluyor',
    'sv:skriv en kort rubrik till vårt nyhetsbrev om sommarens öppettider',
    'I need a short bio for Tinder, I like climbing, bad puns and cooking.',
    'Change this sentence to passive voice: "The committee approved the budget."',
  ],
  medium: [
    'I want to tell my team that I am pregnant and will be on leave from March. Write a short, upbeat message for the team channel.',
    'Can you help me write my personal statement for nursing school? I worked as a care assistant for three years. About 500 words.',
    'Rewrite this story opening to build more suspense, keep my characters:\n\n{{doc}}',
    'pl:napisz list motywacyjny na stanowisko kelnera w restauracji, krótki i konkretny',
    'nl:schrijf een gedicht voor de pensionering van mijn moeder, ze was 35 jaar juf',
    'Write a speech for my grandfather\'s 80th birthday dinner, 3 minutes, with a few jokes about his terrible gardening.',
  ],
  high: [
    'Write a complete 12-chapter outline and the first chapter (3,000 words) of a middle-grade adventure novel about a girl who finds a map in a library book.',
    'I am publishing a cookbook of my family\'s Lebanese recipes. Write the introduction, the chapter openers for 8 chapters, and the headnotes for 30 recipes from my notes:\n\n{{longdoc}}',
    'nl:schrijf de volledige teksten voor de website van ons nieuwe yogacentrum: home, over ons, lessen, docenten, prijzen, veelgestelde vragen',
    'Write our company\'s full annual report narrative (not the financial statements): chair\'s letter, CEO review, strategy, sustainability, people, outlook, about 6,000 words.',
  ],
};

export const research9: FamilyItems = {
  low: [
    'hey do you know when the berlin wall fell',
    'sv:vem uppfann dynamiten?',
    'tr:dünyanın en yüksek dağı hangisi?',
    'Roughly how many people live in Canada?',
    'Who discovered penicillin?',
    'is the great wall of china visible from space',
  ],
  medium: [
    'I keep hearing that we only use 10% of our brain. Where does that idea come from and what do neuroscientists say?',
    'What happened at Chernobyl, and what do we know today about the health effects on people who lived nearby?',
    'Is it better for the climate to buy a new electric car or keep my 10-year-old petrol car? What do lifecycle studies say?',
    'pl:jakie są przyczyny upadku Cesarstwa Zachodniorzymskiego według historyków?',
    'nl:wat zegt onderzoek over de effecten van tweetalig opvoeden op kinderen?',
    'How did the Black Death change wages and society in Europe? Summarize what historians think.',
  ],
  high: [
    'Compile a detailed review of what is known about long COVID: prevalence estimates and why they vary, proposed mechanisms, risk factors, treatments under trial, and the main open questions, with sources.',
    'I am advising a city on congestion pricing. Review the evidence from London, Stockholm, Singapore and New York: design, effects on traffic, air quality, retail, equity, and public acceptance over time.',
    'sv:gör en grundlig genomgång av forskningen om fyradagarsvecka: studier, resultat, kritik och vad som är osäkert',
    'Research the history and current state of universal basic income experiments (Finland, Kenya, Stockton, Alaska): designs, results, critiques, and what they can and cannot tell us.',
  ],
};

export const dataAnalysis9: FamilyItems = {
  low: [
    'just tell me the total for March from this\n\n{{csv}}',
    'sv:vilken månad hade flest besökare?\n\n{{csv}}',
    'Did revenue go up or down between the first and last row?\n\n{{csv}}',
    'nl:wat is het gemiddelde van deze cijfers: 7, 6.5, 8, 5.5, 9',
    'How many rows in this table have status "late"?\n\n{{csv}}',
    'Our email open rates were 21%, 19%, 24%, 18% over four campaigns. Which did best and what is the average?',
  ],
  medium: [
    'I am not a data person. Our shop\'s numbers are below. Tell me in plain words what is going well and what is not.\n\n{{csv}}',
    'Using this data, figure out which of our sales reps are above or below target and by how much, then rank them.\n\n{{csv}}',
    'tr:bu anket sonuçlarını analiz et, yaş gruplarına göre farkları yorumla\n\n{{csv}}',
    'pl:przeanalizuj te dane sprzedaży i powiedz, które produkty tracą popularność\n\n{{midcsv}}',
    'We tried two newsletter subject lines. Line A: 5,200 sent, 1,040 opens. Line B: 5,150 sent, 1,185 opens. Is the difference real? Explain simply.',
    'Group these expenses by category, show the share of each, and tell me where I could save:\n\n{{csv}}',
  ],
  high: [
    'Here is three years of our patient appointment data. Analyse no-shows fully: rates by clinic, weekday, lead time, age and reminders; build a model to predict them; and estimate what an overbooking policy would gain.\n\n{{longcsv}}',
    'sv:analysera våra försäljningsdata för tre år grundligt: säsongsmönster, kampanjeffekter, kundsegment och en prognos för nästa år med osäkerhet\n\n{{longcsv}}',
    'We want to know if our tutoring program improved grades. We have grades before and after for participants and non-participants, plus demographics. Design and carry out the analysis, dealing with selection bias.\n\n{{longcsv}}',
    'Analyse this energy consumption dataset for our factories: baseline, weather normalisation, anomalies, savings from the retrofits done in 2023, and a measurement-and-verification report.\n\n{{longcsv}}',
  ],
};

export const math9: FamilyItems = {
  low: [
    'sv:vad är 15 procent av 600?',
    'tr:12 ile 18\'in en küçük ortak katı nedir?',
    'what is 2 to the power of 16',
    'Convert 72 degrees Fahrenheit to Celsius.',
    'How many diagonals does a hexagon have?',
    'log base 2 of 1024?',
  ],
  medium: [
    'I need to split a 1,260 euro bill between four people where one person only stayed half the time. How do we split it fairly? Show the maths.',
    'nl:los op en leg uit: een rechthoek heeft een omtrek van 34 cm en een diagonaal van 13 cm. wat zijn de zijden?',
    'pl:oblicz pole trójkąta o bokach 7, 8 i 9 cm, krok po kroku',
    'Explain how to compute 17^23 mod 5 without a calculator, step by step.',
    'A population grows 3% per year. How long does it take to double? Derive it exactly and with the rule of 70.',
    'Find all solutions of sin(2x) = cos(x) between 0 and 2π, showing the steps.',
  ],
  high: [
    'Prove that the square root of every prime is irrational, then prove that log2(3) is irrational.',
    'sv:bevisa att det finns oändligt många primtal och visa sedan att summan av deras inverser divergerar',
    'Prove Euler\'s formula V - E + F = 2 for connected planar graphs, then use it to show K5 and K3,3 are not planar.',
    'Set up and solve the optimisation of a two-product factory with linear constraints by the simplex method, then do the sensitivity analysis on the constraints and explain the shadow prices.',
  ],
};

export const summarization9: FamilyItems = {
  low: [
    'sv:sammanfatta det här mejlet i en mening\n\n{{email}}',
    'Give me two bullets from this:\n\n{{doc}}',
    'In one sentence, what is the article below arguing?\n\n{{doc}}',
    'pl:o czym jest ten mail? krótko\n\n{{email}}',
    'shorter please, same meaning, for a tweet:\n\n{{doc}}',
    'I only have a minute. What does this say?\n\n{{email}}',
  ],
  medium: [
    'Summarize this terms-of-service update for our users: what changes, what it means for them, in plain language, under 200 words.\n\n{{pages}}',
    'tr:bu raporu yönetim için bir sayfada özetle\n\n{{pages}}',
    'Create a summary of this webinar transcript that I can send to people who missed it.\n\n{{pages}}',
    'nl:maak een samenvatting van dit hoofdstuk voor mijn tentamen, met de belangrijkste begrippen\n\n{{pages}}',
    'Summarize the pros and cons raised in this discussion thread:\n\n{{email}}\n\n{{email}}\n\n{{email}}',
    'Turn this long article into a 5-point summary for our weekly digest, each point one or two sentences.\n\n{{pages}}',
  ],
  high: [
    'Summarize this whole public inquiry report: executive summary, summary of each chapter, the list of recommendations, and who they are addressed to.\n\n{{longdoc}}',
    'pl:streść cały ten raport roczny: najważniejsze wnioski, streszczenie każdego rozdziału i ryzyka\n\n{{longdoc}}',
    'These are transcripts of all six focus groups. Summarize each group, then compare them and summarize the overall findings.\n\n{{longdoc}}',
    'Write a structured abstract and a one-page plain-language summary of this entire research report, plus a summary of each section.\n\n{{longdoc}}',
  ],
};

export const translation9: FamilyItems = {
  low: [
    'sv:översätt till engelska: "Vi ses på fredag!"',
    'Translate into Dutch: "Your appointment is confirmed."',
    'how do you say "cheers" in polish',
    'tr:"nasılsın" ne demek?',
    'Translate "no parking, entrance in use" into German for a sign.',
    'Arabic for "welcome"?',
  ],
  medium: [
    'Translate this product page from English into Swedish, keep it natural and keep the units:\n\n{{doc}}',
    'pl:przetłumacz ten list na angielski, zachowując oficjalny ton\n\n{{fdoc}}',
    'Translate my wedding invitation into Polish and Turkish; both families will receive it:\n\n{{doc}}',
    'I got this letter from the tax office in the Netherlands. Translate it into English so I know what they want:\n\n{{fdoc}}',
    'nl:vertaal deze vacaturetekst naar het Engels en Duits\n\n{{doc}}',
    'Translate the FAQ below into Spanish for Latin America, keeping the friendly tone:\n\n{{doc}}',
  ],
  high: [
    'Translate the full operating manual below into Polish and Dutch, consistent terminology across both, with a bilingual glossary of the technical terms:\n\n{{longdoc}}',
    'tr:bu uzun sözleşmenin tamamını İngilizceye çevir, hukuki terimleri tutarlı kullan\n\n{{longdoc}}',
    'Translate this entire children\'s novel into Swedish, keeping the rhymes working (rewrite them if needed) and noting each place you adapted:\n\n{{longdoc}}',
    'Translate all of these patient information leaflets into Arabic and Hindi, plain language, medically exact:\n\n{{longdoc}}',
  ],
};

export const extraction9: FamilyItems = {
  low: [
    'sv:vilket datum står det i mejlet?\n\n{{email}}',
    'Extract the postcode from: "Deliver to 14 Mill Lane, Bristol BS1 4QT, ring twice"',
    'What amount is due according to this text?\n\n{{doc}}',
    'nl:welke telefoonnummers staan er in deze tekst?\n\n{{email}}',
    'Just the URLs from this message please:\n\n{{email}}',
    'tr:bu metindeki şirket isimlerini çıkar\n\n{{doc}}',
  ],
  medium: [
    'Create a contact list (name, role, email, phone) from everyone who appears in this email thread:\n\n{{email}}\n\n{{email}}',
    'pl:wyciągnij z tej faktury pozycje, ilości, ceny jednostkowe i sumę do tabeli\n\n{{doc}}',
    'Go through this article and list every statistic it cites, with the number and what it measures.\n\n{{pages}}',
    'From the job ad below, pull out the requirements, nice-to-haves, salary, location and how to apply, as JSON. #json\n\n{{doc}}',
    'sv:extrahera alla datum och händelser ur texten och ställ upp dem i en tidslinje\n\n{{pages}}',
    'Make a table of every flight in these booking emails: date, flight number, from, to, departure time.\n\n{{email}}\n\n{{email}}',
  ],
  high: [
    'From this complete tender document, extract every requirement (mandatory or optional), the section number, the evidence we must provide, and the deadlines, as a compliance matrix.\n\n{{longdoc}}',
    'nl:haal uit al deze notulen alle besluiten, actiepunten, verantwoordelijken en deadlines, en zet ze in één tabel\n\n{{longdoc}}',
    'Extract every adverse event from these trial reports: patient id, event, grade, dates, relation to the drug, outcome, and produce a JSON array plus a count per event type. #json\n\n{{longdoc}}',
    'Go through this full archive of supplier invoices and extract invoice number, supplier, date, line items, VAT and totals into one dataset, flagging duplicates and totals that do not add up.\n\n{{longdoc}}',
  ],
};

export const conversation9: FamilyItems = {
  low: [
    'sv:hej! vad gör du idag?',
    'nice, thanks mate',
    'tr:teşekkürler, çok yardımcı oldun',
    'do you ever get tired of answering questions',
    'pl:dzięki, miłego dnia!',
    'guess what, I got the job!!',
  ],
  medium: [
    'I feel guilty because I do not enjoy spending time with my kids as much as I thought I would. Is that normal?',
    'sv:jag har svårt att säga nej till folk på jobbet, hur kan jag bli bättre på det?',
    'My friend always cancels plans last minute. Should I say something or just stop inviting her?',
    'I get really anxious before phone calls. Any ideas to make it easier?',
    'nl:ik twijfel of ik mijn vriend moet vertellen dat ik zijn nieuwe tatoeage lelijk vind, haha, wat denk jij?',
    'My dad keeps sending me political videos and I do not know how to respond without a fight. Thoughts?',
  ],
  high: [
    'My wife was diagnosed with early-onset Alzheimer\'s at 49. We have two teenagers. I am trying to figure out how to tell them, how to plan our finances and work, and how to keep going myself. Can you help me think through it all?',
    'pl:rozważam rozwód po 15 latach małżeństwa, mamy dwoje dzieci i wspólny kredyt. pomóż mi spokojnie przemyśleć wszystkie aspekty tej decyzji',
    'I have been offered a place at a top university abroad, but my family depends on my income from my part-time job and my mother is against it. Help me think through the whole situation and how to talk to her.',
    'I suspect my elderly neighbour is being financially exploited by her nephew. I barely know her. What should I do, and how do I approach it without making things worse for her?',
  ],
};
