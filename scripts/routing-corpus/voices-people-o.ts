// Tenth batch, part o: same author as voices-people-l.ts (`layer1-s8b`). The two largest
// cross-author confusions once more, from the other side: data-analysis whose text is full of
// programming words (SQL, pandas, R, notebooks, dashboards, query output, stack traces of a job
// that did run) while the person asks what the numbers mean; extraction of items from long or
// narrative text where the words "notes", "report" or "meeting" invite a summary; and, beside
// them, summaries and writing that use the same words. Same notation as coding.ts.
import type { FamilyItems } from './types.ts';

export const dataAnalysis18: FamilyItems = {
  low: [
    'my pandas value_counts() gives this, is the class imbalance bad enough to matter?\n\nchurned\n0    9412\n1     588',
    'SELECT COUNT(*) says 48,210 active users this week vs 51,900 last week. is a 7% drop unusual for us given the past weeks: 50.1k, 49.8k, 52.3k, 51.9k?',
    'dashboard shows conversion 3.2% mobile, 5.9% desktop. is that gap normal for e-commerce or a sign something\'s broken?',
    'R output: t = 2.31, df = 58, p-value = 0.024, mean diff 1.8. what do I conclude, in one sentence for my report?',
    'de:Mein SQL-Ergebnis zeigt 12 % Retourenquote bei Größe M und 4 % bei L. Ist das auffällig?',
  ],
  medium: [
    'I ran this in our notebook:\n\n```python\ndf.groupby("plan")["mrr"].agg(["count","mean","median"])\n```\n\n```\n          count    mean  median\nplan\nbasic      812    29.0    29.0\npro        344    98.4    89.0\nteam       121   412.7   310.0\n```\n\nno code please — what does this say about where our revenue comes from, and what\'s odd about "team"?',
    'Our dbt model output (weekly signups by channel) is below. Marketing says paid social is working; does the data back them up?\n\n{{midcsv}}',
    'Query result from the warehouse, latency by region and hour. Where and when are users getting a bad experience, and is it getting worse?\n\n{{midcsv}}',
    'Looker export below. Interpret the trend in average order value and tell me whether the discount campaign explains it.\n\n{{csv}}',
    'Here\'s the confusion matrix of our fraud model on last month\'s data:\n\n            pred_ok  pred_fraud\nactual_ok     97120        880\nactual_fraud    310        690\n\nexplain precision/recall here in business terms and whether we should lower the threshold',
    'Jupyter output of a Kaplan-Meier fit for subscription survival by plan is below (median survival, CIs). Explain what it means for churn and which differences are real.\n\n{{csv}}',
    'es:el resultado de mi consulta SQL es este, ¿qué conclusiones sacas sobre las ventas por canal? no necesito código\n\n{{csv}}',
    'zh:这是我用pandas算出的各渠道转化率，帮我解读一下哪些差异是真的，哪些可能只是噪音\n\n{{csv}}',
  ],
  high: [
    'Below are the outputs of three analyses our data team ran (SQL aggregates, a regression table from R, and cohort curves from a notebook). They seem to contradict each other about whether the onboarding redesign helped. Reconcile them: which analysis is right, what each one is really measuring, and what the combined evidence says.\n\n{{csv}}\n\n{{csv}}\n\n{{longcsv}}',
    'Export of 12 months of warehouse telemetry (SQL dump of the metrics table, pasted as CSV). Analyse what drives throughput: staffing, order mix, time of day, system incidents. Quantify each, check for confounding, and tell me what you would change first.\n\n{{longcsv}}',
    'fr:Voici les sorties de nos requêtes SQL sur deux ans de ventes. Fais une analyse complète : tendances, saisonnalité, effet des promotions, anomalies, et ce qu\'on peut en conclure avec quelle certitude.\n\n{{longcsv}}',
  ],
};

export const extraction18: FamilyItems = {
  low: [
    'from these meeting notes, only the date of the next meeting\n\n{{doc}}',
    'what\'s the reference number in this letter?\n\n{{email}}',
    'which hotel did they book? name only\n\n{{email}}',
    'fr:donne-moi juste le nom de l\'expéditeur et la date de ce courrier\n\n{{email}}',
  ],
  medium: [
    'These are my notes from the user interviews. I don\'t want a summary: pull out every feature request, verbatim, with who asked for it.\n\n{{pages}}',
    'From this incident report, list every timestamp and what happened at it, in order, as a table.\n\n{{pages}}',
    'Go through the report and list every recommendation it makes, numbered, in its own words.\n\n{{pages}}',
    'From the minutes, give me a table of who attended, who sent apologies, and who chaired.\n\n{{pages}}',
    'List the books, articles and reports cited in this essay as a bibliography (author, title, year where given).\n\n{{pages}}',
    'Extract the questions the journalist asked in this interview transcript, exactly as asked.\n\n{{pages}}',
    { sys: 'You help HR. From the pasted review, return JSON: {"employee","reviewer","period","ratings":{...},"goals":[...]}. Copy values as written.', turns: '{{pages}}' },
    'nl:haal uit deze notulen alle actiepunten met eigenaar en deadline, geen samenvatting\n\n{{pages}}',
    'ja:この報告書に書かれている数値目標をすべて抜き出して、項目・数値・期限の表にして\n\n{{pages}}',
  ],
  high: [
    'Below is the transcript of a two-day workshop. Extract every decision, every open question and every action item, each with the speaker and the timestamp where it was said. Three separate lists, complete.\n\n{{longdoc}}',
    'From this collection of annual reports, extract for each year: revenue, operating profit, headcount, number of sites, and the CEO\'s name, into one table with a source page for each figure.\n\n{{longdoc}}',
    'it:Da tutti questi documenti di gara estrai ogni requisito tecnico con il numero di paragrafo, il testo esatto e se è obbligatorio, in una tabella completa\n\n{{longdoc}}',
  ],
};

export const summarization17: FamilyItems = {
  low: [
    'in a nutshell, what did the meeting decide?\n\n{{doc}}',
    'what\'s this report\'s conclusion, in a line?\n\n{{doc}}',
    'pt:resume-me este email numa frase\n\n{{email}}',
  ],
  medium: [
    'These are my notes from the user interviews. Summarise the overall picture in a paragraph: what users struggle with and what they value.\n\n{{pages}}',
    'Write a short summary of this incident report for the status page: what happened, impact, resolution. No timeline.\n\n{{pages}}',
    'Summarise this essay\'s argument and its main evidence in about 150 words.\n\n{{pages}}',
    'sv:sammanfatta protokollet från mötet i några meningar\n\n{{pages}}',
  ],
  high: [
    'Below is the transcript of a two-day workshop. Write a summary of it for people who were not there: the main discussions, where people disagreed and how it ended, about two pages.\n\n{{longdoc}}',
  ],
};

export const writing17: FamilyItems = {
  low: [
    'reply to this email saying yes, Thursday works, thanks',
    'a short thank-you card text for my kid\'s teacher at the end of the year',
    'es:escribe un mensaje corto felicitando a mi compañero por su ascenso',
  ],
  medium: [
    'Turn these interview notes into a 600-word blog post about what our users taught us this year.\n\n{{pages}}',
    'Write the incident post-mortem email to customers from these notes: apologetic, honest, clear about what we\'re changing.\n\n{{doc}}',
    'Write a heartfelt message to my grandmother for her 90th birthday card; she taught me to bake and to swear in Hungarian.',
    'ko:고객에게 배송 지연을 사과하는 정중한 이메일을 써줘. 보상으로 10% 쿠폰을 제공한다는 내용 포함',
  ],
  high: [
    'Write a 3,000-word feature article about how a small town bakery survived the pandemic, based on these interview notes, with scenes, quotes and a narrative arc.\n\n{{longdoc}}',
  ],
};
