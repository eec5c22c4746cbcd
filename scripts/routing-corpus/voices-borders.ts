// Fifth batch: more requests on the borders the cross-validation confuses most (coding vs
// writing, data-analysis vs coding, research vs conversation, writing vs conversation), each
// labelled by what the person wants done. Same notation as coding.ts.
import type { FamilyItems } from './types.ts';

const none: FamilyItems = { low: [], medium: [], high: [] };

export const coding5: FamilyItems = {
  low: [
    'Write a one-line bash command that prints the 10 largest files in the current directory.',
    'Write a regex that matches dates like 2024-05-17.',
    'write the python to read a text file line by line',
    'Write a SQL statement that adds a NOT NULL column "status" with default \'active\' to users.',
    'What does this Java error mean: "incompatible types: possible lossy conversion from double to int"?',
  ],
  medium: [
    'Write a script that scans a folder of Markdown files and reports broken relative links, with a non-zero exit code if any are found.',
    'Write a Python function that computes a running median of a stream of numbers efficiently, with tests.',
    'Write the SQL schema and queries for a simple blog: posts, tags (many-to-many), comments, with indexes.',
    'Write a GitHub bot in TypeScript that labels pull requests by the folders they touch.',
    'Our Jenkins pipeline takes 40 minutes. Here is the Jenkinsfile:\n\n{{code}}\n\nHow can we parallelise it? Rewrite it.',
  ],
  high: [
    'Write a complete static site generator in Python: Markdown with front matter, Jinja templates, incremental builds, a dev server with live reload, and tests. Explain the architecture.',
    'Design the database and write the backend for a multi-warehouse inventory system with reservations, transfers and audit history, handling concurrent orders correctly. Include the SQL and the service code.',
  ],
};

export const writing5: FamilyItems = {
  low: [
    'Write a one-sentence description for my GitHub profile: backend developer who loves Go and hiking.',
    'Write a short, funny error message for a 404 page.',
    'Write the release note line for: fixed the crash when uploading large photos.',
    'Write a friendly reminder text for a dentist appointment tomorrow at 10.',
    'Write a two-line toast for my parents\' 40th anniversary.',
  ],
  medium: [
    'Write the README introduction for an open-source library that converts spreadsheets into charts: what it does, who it is for, a short example of use in prose (no code), and how to contribute.',
    'Write a blog post (about 600 words) for developers about why code review is also about kindness.',
    'Write a heartfelt message to my team thanking them after a hard quarter, about 200 words.',
    'Write a short story about a programmer who finds a comment in old code addressed to her.',
    'Write the script for a 2-minute podcast ad for a meal-kit service, host-read style.',
  ],
  high: [
    'Write the complete user guide for a home-budgeting app (about 5,000 words): getting started, accounts, budgets, reports, sharing, privacy, troubleshooting, in a friendly voice.',
    'Write a full one-act radio play (about 25 minutes) about two strangers stuck in a lift during a blackout.',
  ],
};

export const research5: FamilyItems = {
  low: [
    'Which vitamin do we get from sunlight?',
    'Who founded Wikipedia?',
    'What is the most spoken language in the world?',
    'How old is the universe?',
    'Is coffee a diuretic?',
  ],
  medium: [
    'What does the research say about whether reading on screens hurts comprehension compared with paper?',
    'Why do some people get motion sickness and others don\'t? What is known about the causes?',
    'What are the main differences between the Catholic and Orthodox churches, and how did the split happen?',
    'How safe is intermittent use of melatonin for sleep? Summarise the evidence.',
    'Explain why the Dutch are so tall compared with other Europeans, according to studies.',
  ],
  high: [
    'Give a comprehensive, sourced assessment of whether the Mediterranean diet reduces dementia risk: cohort studies, RCTs like PREDIMED, confounding, mechanisms, and what we can conclude.',
    'Research and compare how Japan, Germany and the US handled nuclear power after Fukushima: decisions, costs, emissions, public opinion, and lessons for countries deciding now.',
  ],
};

export const dataAnalysis5: FamilyItems = {
  low: [
    'From this table, which product has the highest weekly sales?\n\n{{csv}}',
    'Calculate the conversion rate from signups to paid for each day.\n\n{{csv}}',
    'Median p50 across endpoints?\n\n{{csv}}',
    'What is the growth from the first to the last month?\n\n{{csv}}',
  ],
  medium: [
    'Look at these numbers and tell me if the marketing campaign worked. Be specific about the evidence.\n\n{{csv}}',
    'What is driving the differences between teams in this sprint data? Give an analysis with numbers.\n\n{{csv}}',
    'Interpret this model comparison for my manager who is not technical, with a recommendation.\n\n{{csv}}',
    'Using this data, estimate how much revenue we lose to stockouts per week, and explain your assumptions.\n\n{{csv}}',
    'Compare the two regions over time and test whether the difference is likely real.\n\n{{csv}}',
  ],
  high: [
    'Build a complete attribution analysis for our marketing channels from the data: compare last-click, linear and a data-driven (Shapley or Markov) model, explain the differences, and recommend budget changes with expected impact.\n\n{{longcsv}}',
    'Analyse the entire dataset for pricing insights: elasticity by segment, promotion effects, cannibalisation between products, and a simulation of three pricing scenarios with confidence ranges.\n\n{{longcsv}}',
  ],
};

export const conversation5: FamilyItems = {
  low: [
    'Ugh, Mondays. Tell me something to look forward to.',
    'I finally finished my thesis!!! 🎉',
    'Are you a morning person or a night owl?',
    'I\'m bored on the train, entertain me for a minute.',
    'Do you ever get tired of questions?',
  ],
  medium: [
    'My best friend keeps cancelling plans last minute. I\'m starting to feel like she doesn\'t care. What do I do?',
    'I\'m moving abroad next month and I\'m scared and excited at the same time. Can we just talk about it?',
    'How do I deal with a coworker who talks over me in every meeting? It\'s wearing me down.',
    'I want to be more confident when I meet new people. Any tips that actually work?',
    'My dad and I only talk about football. I\'d like to have a real conversation with him. How do I start?',
  ],
  high: [
    'I\'ve been offered a promotion that means relocating my family across the country. My wife has a job she loves, my son has special needs and a great school here, and the money would change our lives. Help me think through everything carefully, and how to have this conversation with my wife.',
    'I\'m caring for my mum with Parkinson\'s while working full time and I\'m burning out. I feel guilty even thinking about a care home. Please talk this through with me in depth: options, costs, my feelings, my siblings, and a plan.',
  ],
};

export const summarization5 = none;
export const translation5 = none;
export const math5 = none;
export const extraction5 = none;
