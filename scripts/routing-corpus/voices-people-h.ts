// Seventh batch, eighth part: same author as voices-people-a.ts. The shipped corpus's grouped
// cross-validation still confused extraction with summarization (both ways), writing and coding,
// writing and conversation, and data-analysis and coding; more requests on those borders, each
// labelled by what the person wants done. Same notation as coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const extraction12: FamilyItems = {
  low: [
    'From the paragraph below, which year is mentioned?\n\n{{doc}}',
    'copy out the quote from the CEO, word for word\n\n{{doc}}',
    { sys: 'You pull single facts out of documents.', turns: 'Who is the contact person?\n\n{{email}}' },
    'de:welche Telefonnummer steht in der Mail?\n\n{{email}}',
  ],
  medium: [
    'I do not want a summary. I want every number in this report with what it measures, in a list.\n\n{{pages}}',
    'Make a spreadsheet-ready table of the attendees in these notes: name, organisation, role, email if given.\n\n{{pages}}',
    'Find all the deadlines in this email thread and list them with the task and the person responsible.\n\n{{email}}\n\n{{email}}',
    { sys: 'Output a JSON array of {"term": string, "definition": string} for every term the text defines.', turns: '{{pages}}' },
    'Highlight, as a bullet list of exact sentences, every claim in this article that cites a study.\n\n{{pages}}',
    'es:saca de este informe todos los nombres de empresas y las cifras asociadas, en una tabla\n\n{{pages}}',
  ],
  high: [
    'Across all the documents below, find every mention of a supplier, extract the supplier name, the product, the price and the date, and build one deduplicated table.\n\n{{longdoc}}',
    'Index this whole book draft: every person and place, with the sections where each appears.\n\n{{longdoc}}',
  ],
};

export const summarization12: FamilyItems = {
  low: [
    'In plain words, what does this email want from me?\n\n{{email}}',
    'Recap this in one sentence for the minutes:\n\n{{doc}}',
    'de:kurz zusammengefasst, was steht da drin?\n\n{{doc}}',
  ],
  medium: [
    'Give me a short overview of this report, a paragraph, then the three things I should remember.\n\n{{pages}}',
    'Summarize the discussion in these emails so I can catch up in two minutes.\n\n{{email}}\n\n{{email}}',
    { sys: 'You write digests: a title, a two-sentence summary, and why it matters.', turns: '{{pages}}' },
    'Boil this chapter down to half a page for my reading group.\n\n{{pages}}',
  ],
  high: [
    'Read all of the documents below and write a synthesis: what they say together, where they disagree, and what the overall picture is, in about two pages.\n\n{{longdoc}}',
    'Condense this whole handbook into a two-page quick-start guide that keeps everything a new employee must know.\n\n{{longdoc}}',
  ],
};

export const writing12: FamilyItems = {
  low: [
    'Write the commit message for a change that fixes the login timeout on slow networks.',
    'A one-paragraph changelog entry for version 2.3: dark mode, faster search, bug fixes.',
    'rewrite my Slack message so it sounds friendlier: "the build is broken again, who did this"',
    'I need a nice way to say thank you to the support guy who fixed my laptop, one line',
  ],
  medium: [
    'Write the announcement blog post for our open-source library\'s 1.0 release: what it does, what changed, thanks to contributors. No code samples.',
    'Write a friendly message to my book club explaining why I am stepping down as organiser, about 150 words.',
    'Write a note to my neighbours inviting them to a street party, warm and a little funny.',
    { sys: 'You are an editor for a developer blog. Improve clarity and flow, keep technical terms.', turns: 'Please edit my post:\n\n{{doc}}' },
    'I want to write a letter to my younger self for a school assignment about resilience. Can you draft it, about 400 words?',
    'Write the welcome email new users get after signing up to our budgeting app: short, warm, three things to try first.',
  ],
  high: [
    'Write the full technical whitepaper prose (no code) for our database product: problem, architecture in plain language, benchmarks narrative, customer stories, and conclusion, about 5,000 words.',
    'Write a complete memoir-style essay (about 4,000 words) about learning to code at 50 after a career as a carpenter.',
  ],
};

export const conversation12: FamilyItems = {
  low: [
    'you are really helpful today, thanks!',
    'I am so nervous about tomorrow haha',
    'what is your favourite season',
    'fr:merci beaucoup, bonne soirée !',
  ],
  medium: [
    'I want to write to an old friend I lost touch with but I feel awkward. Should I do it? What would I even say?',
    'My partner and I argue about chores every week. How do other couples handle this?',
    'I feel like I am always the one who plans things with friends. Is it worth saying something?',
    'de:ich bin seit Wochen unmotiviert bei der Arbeit. Hast du Ideen, was mir helfen könnte?',
  ],
  high: [
    'My best friend just told me she is moving in with the man I dated for five years. I am devastated and do not know whether I can stay friends with her. Help me work through this.',
    'I am 45 and thinking of going back to university to become a doctor. It would take 10 years, we have two kids, and my wife is supportive but worried. Help me think through it honestly.',
  ],
};

export const coding12: FamilyItems = {
  low: [
    'add a docstring to this function:\n\ndef area(r):\n    return 3.14159 * r * r',
    'what should this variable be called: x = users.filter(u => u.active && u.plan === "pro")',
    'write a .gitignore for a Node project',
    'Convert this curl command to Python requests: curl -X POST -H "Content-Type: application/json" -d \'{"name":"a"}\' https://api.example.com/items',
  ],
  medium: [
    'Add a --json output flag and a --quiet flag to this CLI tool, with tests for both:\n\n{{code}}',
    'Write the OpenAPI spec for our orders API: list, get, create, cancel, with error responses.',
    'Here is a query that takes 30 seconds:\n\n{{code}}\n\nRewrite it and add the indexes that make it fast.',
    'Write a pandas script that merges our two customer exports on email, reports duplicates, and saves the result. Just the script.',
    'Add type hints and error handling to this Python module and write a short CHANGELOG entry for it:\n\n{{code}}',
    'fr:écris une requête SQL qui calcule le chiffre d\'affaires mensuel par catégorie, avec le cumul depuis janvier',
  ],
  high: [
    'Write the full data pipeline code for our analytics: ingestion from three APIs, cleaning, a star schema in Postgres, and scheduled refresh, with tests and documentation.',
    'Generate the complete SDK for our REST API in TypeScript: typed client, auth, retries, pagination helpers, error classes, tests, and the docs site content.',
  ],
};

export const dataAnalysis12: FamilyItems = {
  low: [
    'This query returned the table below. Which customer spent the most?\n\n{{csv}}',
    'Per the export below, what share of orders were returned?\n\n{{csv}}',
  ],
  medium: [
    'I already cleaned the data with Python; now tell me what it says. Which features of the listings are linked to higher prices?\n\n{{midcsv}}',
    'Our dashboard shows these numbers. Is the drop in sign-ups last week unusual compared with normal week-to-week swings?\n\n{{csv}}',
    'Look at this experiment result table and tell me which variant to ship and how sure we can be:\n\n{{csv}}',
    'es:con estos datos de ventas, ¿qué tiendas están por debajo de la media y por cuánto?\n\n{{csv}}',
  ],
  high: [
    'With the usage logs below, work out which features predict that a trial user converts to paid, quantify the effect of each, and recommend what to change in onboarding. Analysis, not code.\n\n{{longcsv}}',
    'Using this panel of regional data, assess whether the new transit line increased property values nearby, with a suitable comparison group and robustness checks.\n\n{{longcsv}}',
  ],
};
