// The report of `npm run soak` (bench/soak.ts): per-minute tables of the calls and of every
// process, and a verdict per series on whether it levels off. Pure functions of the samples, so
// the verdict rule is tested on its own (test/soak-report.test.ts).

export interface CallRecord {
  /** ms since the load started */
  start: number;
  end: number;
  ms: number;
  shape: string;
  stream: boolean;
  ok: boolean;
  error?: string;
}

export interface ProcSample {
  name: string;
  rssMb: number;
  fds: number;
  /** From bench/soak-probe.mjs (serve replicas and workers only). */
  heapMb?: number;
  handles?: number;
  handleTypes?: Record<string, number>;
  lagP50?: number;
  lagP99?: number;
  lagMax?: number;
  elu?: number;
  /** PostgreSQL: postmaster plus backends. */
  processes?: number;
  /** PostgreSQL: private anonymous memory (Pss_Anon) summed over its processes. */
  pgPrivateMb?: number;
  /** PostgreSQL: shared memory (Pss_Shmem, counted once): shared_buffers touched and the other shared structures. */
  pgSharedMb?: number;
  /** PostgreSQL: the largest private anonymous memory of one process. */
  pgPrivateMaxMb?: number;
}

export interface Sample {
  /** ms since the load started */
  t: number;
  load1: number;
  procs: ProcSample[];
  extra: { pgDbMb?: number; pgConns?: number; pgBuffersUsedMb?: number; redisMb?: number; redisKeys?: number };
}

export type Trend = 'flat' | 'levelled off' | 'slowing' | 'grows steadily' | 'too short';

export interface Verdict {
  series: string;
  unit: string;
  start: number;
  mid: number;
  end: number;
  /** Least-squares slope over the second half, per minute. */
  slopePerMin: number;
  trend: Trend;
  /** Growth that is stored data by design (database size, Redis streams), not a leak. */
  expected?: string;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p[0], 0) / n;
  const my = points.reduce((a, p) => a + p[1], 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Whether a series levels off. The first part of the run is warm-up (JIT, pools filling, caches):
 * the later of 2 minutes and a tenth of the run. After it, the series is split in two halves and
 * each end is the median of a few samples (noise of one sample does not decide). Within
 * tolerance over the whole run: flat. Grown, but not in the second half: levelled off. Grown in the
 * second half by less than half of the first half's growth: slowing (decelerating: it may level
 * off later; a longer run tells). Otherwise it grows steadily, which a leak does.
 */
export function trendOf(points: Array<[number, number]>, tolerance: (start: number) => number): Omit<Verdict, 'series' | 'unit'> {
  const last = points.at(-1)?.[0] ?? 0;
  const warm = Math.max(120_000, last / 10);
  const after = points.filter(([t]) => t >= warm);
  if (after.length < 6) return { start: NaN, mid: NaN, end: NaN, slopePerMin: 0, trend: 'too short' };
  const w = Math.max(2, Math.min(6, Math.floor(after.length / 10)));
  const h = Math.floor(after.length / 2);
  const start = median(after.slice(0, w).map((p) => p[1]));
  const mid = median(after.slice(h - Math.floor(w / 2), h - Math.floor(w / 2) + w).map((p) => p[1]));
  const end = median(after.slice(-w).map((p) => p[1]));
  const slopePerMin = slope(after.slice(h).map(([t, v]) => [t / 60_000, v]));
  const tol = tolerance(start);
  const total = end - start;
  const first = mid - start;
  const second = end - mid;
  let trend: Trend;
  if (Math.abs(total) <= tol && Math.abs(second) <= tol) trend = 'flat';
  else if (second <= tol) trend = 'levelled off';
  else if (second < first / 2) trend = 'slowing';
  else trend = 'grows steadily';
  return { start, mid, end, slopePerMin, trend };
}

const memTol = (start: number) => Math.max(8, start * 0.05);
const countTol = (start: number) => Math.max(4, start * 0.1);

/** A verdict for every series that could leak. */
export function judge(samples: Sample[]): Verdict[] {
  const out: Verdict[] = [];
  const names = [...new Set(samples.flatMap((s) => s.procs.map((p) => p.name)))];
  const series = (name: string, pick: (p: ProcSample) => number | undefined): Array<[number, number]> =>
    samples.flatMap((s) => {
      const p = s.procs.find((q) => q.name === name);
      const v = p ? pick(p) : undefined;
      return v === undefined || v < 0 ? [] : [[s.t, v] as [number, number]];
    });
  for (const name of names) {
    const add = (metric: string, unit: string, pick: (p: ProcSample) => number | undefined, tol: (s: number) => number) => {
      const pts = series(name, pick);
      if (pts.length) out.push({ series: `${name} ${metric}`, unit, ...trendOf(pts, tol) });
    };
    add(name === 'postgres' ? 'memory (PSS)' : 'RSS', 'MB', (p) => p.rssMb, memTol);
    add('private memory (Pss_Anon, all processes)', 'MB', (p) => p.pgPrivateMb, memTol);
    add('private memory per process (mean)', 'MB', (p) => (p.pgPrivateMb !== undefined && p.processes ? p.pgPrivateMb / p.processes : undefined), (s) => Math.max(1, s * 0.1));
    add('private memory of the largest process', 'MB', (p) => p.pgPrivateMaxMb, (s) => Math.max(2, s * 0.05));
    add('shared memory (Pss_Shmem)', 'MB', (p) => p.pgSharedMb, memTol);
    add('V8 heap used', 'MB', (p) => p.heapMb, memTol);
    add('open fds', '', (p) => p.fds, countTol);
    add('active handles', '', (p) => p.handles, countTol);
    add('event-loop p99', 'ms', (p) => p.lagP99, (s) => Math.max(20, s));
  }
  const extra = (metric: string, unit: string, pick: (e: Sample['extra']) => number | undefined, tol: (s: number) => number, expected?: string) => {
    const pts = samples.flatMap((s) => {
      const v = pick(s.extra);
      return v === undefined ? [] : [[s.t, v] as [number, number]];
    });
    if (pts.length) out.push({ series: metric, unit, ...trendOf(pts, tol), ...(expected ? { expected } : {}) });
  };
  extra('PostgreSQL connections', '', (e) => e.pgConns, countTol);
  extra('PostgreSQL database size', 'MB', (e) => e.pgDbMb, memTol, 'stored data: call logs, ledger, events and outbox rows are kept by design');
  extra('PostgreSQL shared buffers in use', 'MB', (e) => e.pgBuffersUsedMb, memTol);
  extra('Redis used_memory', 'MB', (e) => e.redisMb, (s) => Math.max(2, s * 0.05), 'event streams are kept 24 h (capped per stream)');
  extra('Redis keys', '', (e) => e.redisKeys, countTol);
  return out;
}

export function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const f0 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : Math.round(n).toString());
const f1 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(1));

export interface ReportInput {
  started: string;
  commit: string;
  minutes: number;
  rate: number;
  tenants: number;
  sampleS: number;
  /** PostgreSQL's shared_buffers and whole shared memory segment, as it reports them. */
  pg?: { sharedBuffers: string; segment: string };
  cpus: number;
  records: CallRecord[];
  notStarted: number;
  samples: Sample[];
  money: string[];
  logErrors: Array<{ file: string; count: number; first: string[] }>;
  verdicts: Verdict[];
}

export function renderReport(r: ReportInput): string {
  const L: string[] = [];
  const ok = r.records.filter((c) => c.ok).length;
  L.push(`# Soak run ${r.started}`, '');
  L.push(
    `Commit ${r.commit}; ${r.minutes} min of open-loop load at ${r.rate} calls/s through HAProxy (2 \`serve\` replicas, 1 \`worker\`), ${r.tenants} tenants, the three shapes plain and streamed in turn; samples every ${r.sampleS} s; ${r.cpus} CPU(s)${r.pg ? `; PostgreSQL shared_buffers ${r.pg.sharedBuffers}` : ''}.`,
    '',
    `Calls: ${r.records.length} started, ${ok} whole answers, ${r.records.length - ok} errors or incomplete answers, ${r.notStarted} not started (200 already in flight).`,
    '',
  );

  // Verdicts first: the reading.
  L.push('## Does anything keep growing?', '', '| series | start | mid | end | slope (2nd half) / min | trend |', '| --- | ---: | ---: | ---: | ---: | --- |');
  for (const v of r.verdicts) {
    const fmt = v.unit === 'MB' || v.unit === 'ms' ? f1 : f0;
    L.push(`| ${v.series}${v.unit ? ` (${v.unit})` : ''} | ${fmt(v.start)} | ${fmt(v.mid)} | ${fmt(v.end)} | ${v.slopePerMin >= 0 ? '+' : ''}${v.slopePerMin.toFixed(2)} | ${v.trend}${v.expected ? ` (${v.expected})` : ''} |`);
  }
  const growing = r.verdicts.filter((v) => v.trend === 'grows steadily' && !v.expected);
  L.push('', growing.length ? `**Growing steadily (not stored data): ${growing.map((v) => v.series).join(', ')}.**` : 'No process series grows steadily after warm-up.', '');
  L.push('Trend rule (bench/soak-report.ts `trendOf`): after a warm-up (2 min or a tenth of the run), start, middle and end are medians of a few samples; *flat* within tolerance (memory 8 MB or 5 %, counts 4 or 10 %), *levelled off* when the second half adds no more than the tolerance, *slowing* when it adds less than half of what the first half did, otherwise *grows steadily*.', '');

  // Calls per minute.
  const minutes = Math.ceil(Math.max(1, ...r.records.map((c) => c.end)) / 60_000);
  L.push('## Calls per minute', '', '| min | calls | errors | plain p50 | plain p99 | stream p50 | stream p99 | load avg |', '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (let m = 0; m < minutes; m++) {
    const inMin = r.records.filter((c) => c.end >= m * 60_000 && c.end < (m + 1) * 60_000);
    const lat = (stream: boolean) => inMin.filter((c) => c.ok && c.stream === stream).map((c) => c.ms).sort((a, b) => a - b);
    const plain = lat(false);
    const streamed = lat(true);
    const load = r.samples.filter((s) => Math.ceil(s.t / 60_000) === m + 1).map((s) => s.load1);
    L.push(`| ${m + 1} | ${inMin.length} | ${inMin.filter((c) => !c.ok).length} | ${f0(pct(plain, 50))} | ${f0(pct(plain, 99))} | ${f0(pct(streamed, 50))} | ${f0(pct(streamed, 99))} | ${load.length ? f1(Math.max(...load)) : '–'} |`);
  }
  L.push('', 'Latencies in ms, client side (official SDK, through HAProxy), whole call including the paced upstream (plain: 150 ms; streams: ~25 ms per event). Load average: the machine\'s 1-minute load, highest sample of the minute.', '');

  const errors = new Map<string, number>();
  for (const c of r.records) if (!c.ok) errors.set(`${c.shape}${c.stream ? '/stream' : ''}: ${c.error}`, (errors.get(`${c.shape}${c.stream ? '/stream' : ''}: ${c.error}`) ?? 0) + 1);
  L.push('## Errors', '');
  if (!errors.size) L.push('None.');
  for (const [e, n] of [...errors].sort((a, b) => b[1] - a[1]).slice(0, 20)) L.push(`- ${n} × ${e}`);
  L.push('');

  // Processes per minute: the last sample of each minute (event-loop figures: the worst of the minute).
  const names = [...new Set(r.samples.flatMap((s) => s.procs.map((p) => p.name)))];
  const perMinute = (pick: (p: ProcSample) => number | undefined, worst = false) =>
    Array.from({ length: minutes + 1 }, (_, m) => {
      // Row m: the samples of the minute ending at m (row 0: the one taken before the load).
      const inMin = r.samples.filter((s) => Math.ceil(s.t / 60_000) === m);
      return names.map((n) => {
        const vs = inMin.map((s) => s.procs.find((p) => p.name === n)).map((p) => (p ? pick(p) : undefined)).filter((v): v is number => v !== undefined && v >= 0);
        return vs.length ? (worst ? Math.max(...vs) : vs.at(-1)) : undefined;
      });
    });
  const table = (title: string, note: string, pick: (p: ProcSample) => number | undefined, fmt: (n: number | undefined) => string, worst = false) => {
    const rows = perMinute(pick, worst);
    const cols = names.filter((_, i) => rows.some((row) => row[i] !== undefined));
    if (!cols.length) return;
    L.push(`## ${title}`, '', note, '', `| min | ${cols.join(' | ')} |`, `| ---: | ${cols.map(() => '---:').join(' | ')} |`);
    rows.forEach((row, m) => {
      if (row.every((v) => v === undefined)) return;
      L.push(`| ${m} | ${names.map((n, i) => (cols.includes(n) ? fmt(row[i]) : null)).filter((x) => x !== null).join(' | ')} |`);
    });
    L.push('');
  };
  table('Memory (MB)', 'RSS of each process; PostgreSQL: PSS summed over the postmaster and its backends (shared buffers counted once). Row *m*: the last sample of the minute ending at *m* (row 0: before the load).', (p) => p.rssMb, f0);
  table('V8 heap used (MB)', 'From the probe inside each replica and worker.', (p) => p.heapMb, f1);
  table('Open file descriptors', '/proc/<pid>/fd; PostgreSQL summed over its processes.', (p) => p.fds, f0);
  table('Active handles', "process.getActiveResourcesInfo(): sockets, timers, … keeping each Node process's loop alive.", (p) => p.handles, f0);
  table('Event-loop delay p99 (ms, worst sample of the minute)', 'monitorEventLoopDelay in each replica and worker.', (p) => p.lagP99, f1, true);
  table('Event-loop delay max (ms, worst of the minute)', '', (p) => p.lagMax, f0, true);

  if (r.samples.some((s) => s.procs.some((p) => p.pgSharedMb !== undefined))) {
    L.push(
      '## PostgreSQL memory: private and shared',
      '',
      `From /proc/<pid>/smaps_rollup of the postmaster and every backend, summed. *Private*: Pss_Anon, each process's own memory (catalog and plan caches, sort and hash memory). *Shared*: Pss_Shmem, the shared memory segment's pages touched so far, each counted once; it cannot exceed the segment${r.pg ? ` (${r.pg.segment}, of which shared_buffers ${r.pg.sharedBuffers})` : ''}. *Buffers in use*: pg_buffercache's buffers holding a page. PSS also counts the binaries' and libraries' file pages.`,
      '',
      '| min | processes | PSS total | private | private per process | largest private | shared | buffers in use | PG database |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (let m = 0; m <= minutes; m++) {
      const s = r.samples.filter((x) => Math.ceil(x.t / 60_000) === m).at(-1);
      const p = s?.procs.find((q) => q.name === 'postgres');
      if (s && p) L.push(`| ${m} | ${f0(p.processes)} | ${f1(p.rssMb)} | ${f1(p.pgPrivateMb)} | ${p.pgPrivateMb !== undefined && p.processes ? (p.pgPrivateMb / p.processes).toFixed(2) : '–'} | ${f1(p.pgPrivateMaxMb)} | ${f1(p.pgSharedMb)} | ${f1(s.extra.pgBuffersUsedMb)} | ${f1(s.extra.pgDbMb)} |`);
    }
    L.push('');
  }

  L.push('## PostgreSQL and Redis', '', '| min | PG connections | PG database (MB) | Redis used (MB) | Redis keys |', '| ---: | ---: | ---: | ---: | ---: |');
  for (let m = 0; m <= minutes; m++) {
    const s = r.samples.filter((x) => Math.ceil(x.t / 60_000) === m).at(-1);
    if (s) L.push(`| ${m} | ${f0(s.extra.pgConns)} | ${f1(s.extra.pgDbMb)} | ${f1(s.extra.redisMb)} | ${f0(s.extra.redisKeys)} |`);
  }
  L.push('');

  const lastHandles = r.samples.at(-1)?.procs.filter((p) => p.handleTypes) ?? [];
  if (lastHandles.length) {
    L.push('## Handles by type at the end', '');
    for (const p of lastHandles) L.push(`- ${p.name}: ${Object.entries(p.handleTypes!).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    L.push('');
  }

  L.push('## Money afterwards', '', ...r.money.map((m) => `- ${m}`), '');
  L.push('## Errors in the processes\' logs', '');
  if (!r.logErrors.length) L.push('None at level error or fatal.');
  for (const e of r.logErrors) L.push(`- ${e.file}: ${e.count} line(s); most frequent: ${e.first.map((l) => `\`${l.slice(0, 200).replace(/`/g, "'")}\``).join('; ')}`);
  L.push('');
  return L.join('\n');
}
