// Accuracy, per-class precision and recall, confusion matrices, and the complexity errors split
// into the ones that cost quality (read too low) and the ones that cost money (read too high).
import { COMPLEXITIES, TASK_FAMILIES } from '../../src/core/routing/vocabulary.ts';

export interface Prediction {
  family: string;
  complexity: string;
}
export interface Labelled extends Prediction {
  id: string;
}

export interface Report {
  n: number;
  familyAccuracy: number;
  complexityAccuracy: number;
  /** Both right. */
  jointAccuracy: number;
  perFamily: Record<string, { precision: number; recall: number; support: number }>;
  familyConfusion: number[][];
  complexityConfusion: number[][];
  /** Complexity read lower than the label: hard work sent to a cheaper class. */
  tooLow: number;
  /** Complexity read higher than the label: money spent that was not needed. */
  tooHigh: number;
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);

export function report(truth: readonly Labelled[], predicted: readonly Prediction[]): Report {
  const F = TASK_FAMILIES as readonly string[];
  const C = COMPLEXITIES as readonly string[];
  const fam = F.map(() => F.map(() => 0));
  const cx = C.map(() => C.map(() => 0));
  let fOk = 0;
  let cOk = 0;
  let both = 0;
  let tooLow = 0;
  let tooHigh = 0;
  truth.forEach((t, i) => {
    const p = predicted[i];
    fam[F.indexOf(t.family)][F.indexOf(p.family)]++;
    const ct = C.indexOf(t.complexity);
    const cp = C.indexOf(p.complexity);
    cx[ct][cp]++;
    if (t.family === p.family) fOk++;
    if (ct === cp) cOk++;
    if (t.family === p.family && ct === cp) both++;
    if (cp < ct) tooLow++;
    if (cp > ct) tooHigh++;
  });
  const perFamily: Report['perFamily'] = {};
  F.forEach((f, i) => {
    const support = fam[i].reduce((a, b) => a + b, 0);
    const predictedAs = fam.reduce((a, row) => a + row[i], 0);
    perFamily[f] = { precision: ratio(fam[i][i], predictedAs), recall: ratio(fam[i][i], support), support };
  });
  const n = truth.length;
  return {
    n,
    familyAccuracy: ratio(fOk, n),
    complexityAccuracy: ratio(cOk, n),
    jointAccuracy: ratio(both, n),
    perFamily,
    familyConfusion: fam,
    complexityConfusion: cx,
    tooLow,
    tooHigh,
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

function matrix(labels: readonly string[], m: number[][], short: (s: string) => string): string[] {
  const w = Math.max(7, ...labels.map((l) => short(l).length + 1));
  const out = [`${'true \\ predicted'.padEnd(18)}${labels.map((l) => short(l).padStart(w)).join('')}`];
  m.forEach((row, i) => out.push(`${labels[i].padEnd(18)}${row.map((v) => String(v).padStart(w)).join('')}`));
  return out;
}

const SHORT: Record<string, string> = {
  coding: 'code', writing: 'write', research: 'resrch', 'data-analysis': 'data', math: 'math',
  summarization: 'summ', translation: 'transl', extraction: 'extract', conversation: 'conv',
};

/** The report as text, with an optional baseline printed beside each figure. */
export function formatReport(title: string, r: Report, baseline?: Report): string {
  const vs = (x: number, b: number | undefined): string => (b === undefined ? pct(x) : `${pct(x).padStart(6)}  (baseline ${pct(b)})`);
  const out = [
    `== ${title}: ${r.n} rows`,
    `task family accuracy   ${vs(r.familyAccuracy, baseline?.familyAccuracy)}`,
    `complexity accuracy    ${vs(r.complexityAccuracy, baseline?.complexityAccuracy)}`,
    `both right             ${vs(r.jointAccuracy, baseline?.jointAccuracy)}`,
    `complexity read too low (costs quality): ${r.tooLow} (${pct(ratio(r.tooLow, r.n))})${baseline ? `  baseline ${baseline.tooLow} (${pct(ratio(baseline.tooLow, baseline.n))})` : ''}`,
    `complexity read too high (costs money):  ${r.tooHigh} (${pct(ratio(r.tooHigh, r.n))})${baseline ? `  baseline ${baseline.tooHigh} (${pct(ratio(baseline.tooHigh, baseline.n))})` : ''}`,
    '',
    `${'family'.padEnd(16)}${'support'.padStart(8)}${'precision'.padStart(11)}${'recall'.padStart(9)}${baseline ? '   baseline P / R' : ''}`,
  ];
  for (const f of TASK_FAMILIES) {
    const x = r.perFamily[f];
    const b = baseline?.perFamily[f];
    out.push(`${f.padEnd(16)}${String(x.support).padStart(8)}${pct(x.precision).padStart(11)}${pct(x.recall).padStart(9)}${b ? `   ${pct(b.precision)} / ${pct(b.recall)}` : ''}`);
  }
  out.push('', 'task family confusion (rows: label, columns: prediction)', ...matrix(TASK_FAMILIES, r.familyConfusion, (s) => SHORT[s] ?? s));
  out.push('', 'complexity confusion (rows: label, columns: prediction)', ...matrix(COMPLEXITIES, r.complexityConfusion, (s) => s));
  return out.join('\n');
}
