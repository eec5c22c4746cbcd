// Tenth batch, part r: same author as voices-people-l.ts (`layer1-s8b`). Two more borders:
// extraction whose material is full of numbers (figures, percentages, amounts, tables to turn
// into records), which is not math and not analysis when nothing is to be computed or
// interpreted; and research on technical, mathematical or programming subjects (the state of an
// algorithm, surveys of tools, the history of a proof), which is not coding or math when the ask
// is to find out and compare what is known. Same notation as coding.ts, plus {sys, turns} items.
import type { FamilyItems } from './types.ts';

export const extraction20: FamilyItems = {
  low: [
    'list every percentage in this paragraph\n\n{{doc}}',
    'what interest rate does this offer quote? the number only\n\n{{email}}',
    'copy out the totals row from this table\n\n{{csv}}',
    'ja:この文章に出てくる数字を全部リストにして\n\n{{doc}}',
    'de:Welche Telefonnummern stehen in diesem Text?\n\n{{doc}}',
  ],
  medium: [
    'Turn this table into JSON records, one object per row, keys from the header. Don\'t compute anything. #json\n\n{{csv}}',
    'Pull every figure from this earnings call excerpt with what it measures and the period: revenue, margins, guidance, headcount.\n\n{{pages}}',
    'Which invoices in this statement are over €1,000? Invoice number, date, amount — just list them.\n\n{{email}}',
    'From this recipe collection, extract each recipe\'s name, servings, and ingredient list with quantities, as JSON. #json\n\n{{pages}}',
    'Go through these lab notes and list every measurement with its unit, sample ID and time.\n\n{{pages}}',
    'Get the specs out of this product description into a table: dimensions, weight, power, warranty, price.\n\n{{doc}}',
    { sys: 'Output CSV with header "date,description,amount,currency". Extract every transaction from the pasted bank statement text. No commentary.', turns: '{{pages}}' },
    'fr:dans ce rapport, relève tous les chiffres clés (montant, pourcentage, année) avec la phrase d\'où ils viennent\n\n{{pages}}',
    'zh:把这份报价单里的每一项（名称、数量、单价、小计）提取成JSON #json\n\n{{doc}}',
  ],
  high: [
    'Below are 40 pages of scanned financial statements (OCR text). Extract the income statement and balance sheet line items for each of the three years into one table, exactly as reported, with the page each figure comes from. Do not recompute totals.\n\n{{longdoc}}',
    'From the full set of clinical trial reports below, extract for every trial: registry ID, phase, arms, number randomised per arm, primary endpoint, result for the endpoint with CI, and adverse events as reported. One row per trial.\n\n{{longdoc}}',
  ],
};

export const research20: FamilyItems = {
  low: [
    'what is the current best known exponent for matrix multiplication, and who holds it?',
    'which programming language is most used in scientific computing according to recent surveys?',
    'when was Fermat\'s last theorem proved and by whom?',
    'es:¿qué base de datos vectorial es la más usada según las encuestas recientes de desarrolladores?',
  ],
  medium: [
    'What is the state of the art for SAT solvers? Which solvers win the competitions, what techniques drive them, and where can I read more?',
    'Compare the main benchmarks used to evaluate code-generating models (HumanEval, MBPP, SWE-bench, …): what each measures, known criticisms, and which are considered saturated.',
    'How did the proof of the four colour theorem evolve, from the first computer-assisted proof to the formal verification? Give me the history with sources.',
    'Look into how big companies run their monorepos (Google, Meta, Microsoft): tools they built, published papers and talks, what they say the trade-offs are.',
    'What do published studies say about the bug rates of statically vs dynamically typed languages? Explain why the results are contested.',
    'de:Was ist der aktuelle Stand bei Post-Quanten-Kryptographie? Welche Verfahren hat NIST standardisiert, wer setzt sie schon ein, und was sind offene Probleme?',
    'it:quali sono i risultati più recenti sulla congettura di Collatz? riassumi cosa è stato dimostrato e da chi, con fonti',
  ],
  high: [
    'Survey the research on learned index structures since 2018: the original proposal, follow-up work, benchmarks against B-trees, where they have been deployed, and the critiques. A structured review with references.',
    'Investigate the evidence on the productivity effects of AI coding assistants: controlled experiments, field studies, vendor reports, their methods and conflicts of interest, and what a careful reader should conclude.',
  ],
};

export const dataAnalysis20: FamilyItems = {
  low: [
    'in this table which region has the highest average and is it by a lot\n\n{{csv}}',
    'ko:이 데이터에서 매출이 가장 크게 떨어진 달은?\n\n{{csv}}',
  ],
  medium: [
    'I pasted our support CSAT by agent below. Who is consistently below the team, once you allow for how few tickets some of them had?\n\n{{csv}}',
    'These are the percentages from our employee survey, 2025 vs 2026. Which changes are big enough to mention to leadership, and which are within noise for ~200 respondents?\n\n{{csv}}',
  ],
  high: [],
};

export const summarization18: FamilyItems = {
  low: [
    'what\'s this earnings call excerpt saying, in one line?\n\n{{doc}}',
    'zh:用一句话概括这份通知\n\n{{doc}}',
  ],
  medium: [
    'Summarise these lab notes for my supervisor: what was tried this week and what came of it, one paragraph.\n\n{{pages}}',
    'Give me the short version of this product spec for the sales team — what it is and why it matters, 5 bullets.\n\n{{pages}}',
  ],
  high: [],
};

export const math18: FamilyItems = {
  low: [
    'is 221 prime?',
    'fr:combien font 15 % de 80 ?',
  ],
  medium: [
    'Show that the product of four consecutive integers plus one is always a perfect square.',
    'A savings account pays 3% compounded monthly. How long until a deposit doubles? Derive it, then give the number.',
  ],
  high: [
    'es:Demuestra el teorema del valor medio a partir del teorema de Rolle, y luego usa el resultado para probar que si f\'(x)=0 en un intervalo, f es constante',
  ],
};
