// Seventh batch, seventh part: same author as voices-people-a.ts. After the first six parts the
// grouped cross-validation of the training split still confused extraction with summarization,
// research with conversation and data-analysis with coding, and "step by step" had become a math
// word; these requests sit on those borders, each labelled by what the person wants done.
// Same notation as coding.ts.
import type { FamilyItems } from './types.ts';

export const research11: FamilyItems = {
  low: [
    'Explain in two sentences what a black hole is.',
    'what causes the seasons, short answer',
    'Why is the sky blue? Keep it simple for my 8-year-old.',
    'How does a vaccine work, in one paragraph?',
  ],
  medium: [
    'Explain how the immune system fights a cold, step by step, for a biology class.',
    'How does the water cycle work? Walk me through each stage for a geography lesson.',
    'Explain step by step how a bill becomes a law in the United States.',
    'How do tides work? Explain the role of the moon and the sun for a middle-school class.',
    'I have always wondered how airplanes stay in the air. Can you explain it properly, step by step?',
    'fr:explique-moi étape par étape comment fonctionne la digestion, pour un exposé au collège',
    'de:erkläre Schritt für Schritt, wie ein Kernkraftwerk Strom erzeugt, für eine Schulpräsentation',
    'Explain how earthquakes happen and how scientists measure them, for a high-school project.',
  ],
  high: [
    'Explain, step by step and with the evidence for each step, how life is thought to have started on Earth: the main hypotheses (RNA world, hydrothermal vents, panspermia), the key experiments, and the open problems.',
    'Give me a thorough, sourced explanation of how the human brain forms and retrieves memories, from synapses to systems, including what remains debated.',
  ],
};

export const conversation11: FamilyItems = {
  low: [
    'what do you think about pineapple on pizza',
    'tell me about your day lol',
    'I just saw a double rainbow!',
    'do you dream?',
  ],
  medium: [
    'I think I said something stupid at dinner with my in-laws. How do I stop replaying it in my head?',
    'What do you think makes a friendship last? Mine all seem to fade after a couple of years.',
    'I am torn about whether to go to my high school reunion. Part of me is curious, part of me dreads it.',
    'es:¿tú qué harías si tu jefe te escribe por WhatsApp a las once de la noche?',
  ],
  high: [],
};

export const dataAnalysis11: FamilyItems = {
  low: [
    'Looking at this table, which city had the lowest average temperature?\n\n{{csv}}',
    'According to these numbers, did we hit the 10% growth target?\n\n{{csv}}',
  ],
  medium: [
    'I ran this SQL and got the result below. What does it tell us about customer behaviour? I do not need more SQL, I need the interpretation.\n\n{{csv}}',
    'Here is the output of my pandas groupby. Explain what the numbers mean for our product decision.\n\n{{csv}}',
    'Interpret this regression output for me: which variables matter, how much, and can I trust it?\n\ncoef std err t P>|t|\nconst 12.31 2.10 5.86 0.000\nprice -0.84 0.21 -4.00 0.000\nads 0.37 0.15 2.47 0.014\nseason 1.92 1.40 1.37 0.171',
    'We have the numbers below from our sales dashboard. Which product line is driving the drop, and is it seasonal or something else?\n\n{{midcsv}}',
  ],
  high: [
    'Using this data, work out what drives employee attrition at our company, quantify each driver, and tell me which interventions would have the most effect. I want the analysis and conclusions, not a code tutorial.\n\n{{longcsv}}',
    'Analyse this dataset of loan applications: approval rates by group, whether the differences persist after controlling for income and credit score, and what that means for fairness.\n\n{{longcsv}}',
  ],
};

export const extraction11: FamilyItems = {
  low: [
    'Which product codes appear in this report? Only the codes.\n\n{{doc}}',
    'List the names of the people who are mentioned, nothing else.\n\n{{doc}}',
    'what\'s the invoice total and due date\n\n{{email}}',
  ],
  medium: [
    'Do not summarize, extract: every date, amount and person in the document below, in three lists.\n\n{{pages}}',
    'From this article, pull the exact figures (number, unit, what it refers to) into a table. No summary needed.\n\n{{pages}}',
    'Go through the emails and give me a table of every meeting proposed: date, time, place, who proposed it.\n\n{{email}}\n\n{{email}}',
    'I need the structured data from these pages: company name, registration number, address, directors. One row per company.\n\n{{pages}}',
    'fr:relève toutes les références de commande et les montants dans ces documents, sous forme de tableau\n\n{{pages}}',
    'Tag each sentence in the text below with the named entities it contains (person, organisation, place, date).\n\n{{doc}}',
  ],
  high: [
    'From every document below, extract each financial figure with its label, period, currency and source section, and reconcile figures that appear twice with different values.\n\n{{longdoc}}',
    'Pull every contractual date from this whole set of agreements into one calendar (date, agreement, clause, what must happen), and list conflicts between agreements.\n\n{{longdoc}}',
  ],
};

export const summarization11: FamilyItems = {
  low: [
    'What is the gist of this? Not details, just the gist.\n\n{{doc}}',
  ],
  medium: [
    'Summarize, do not list: what is this document about and what does it conclude?\n\n{{pages}}',
    'Write a short narrative summary of these emails for someone joining the project.\n\n{{email}}\n\n{{email}}',
  ],
  high: [],
};
