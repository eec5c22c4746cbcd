// The soak's reading (bench/soak-report.ts): the verdict rule on series of known shape, and the
// PostgreSQL private/shared split carried from the samples to the verdicts and the report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, renderReport, trendOf, type Sample } from '../bench/soak-report.ts';

const MIN = 60_000;
/** One point every 10 s for `minutes`, value f(minute). */
const series = (minutes: number, f: (m: number) => number): Array<[number, number]> =>
  Array.from({ length: minutes * 6 + 1 }, (_, i) => [i * 10_000, f((i * 10_000) / MIN)]);
const tol = (s: number) => Math.max(8, s * 0.05);

test('trendOf: a flat series with noise is flat', () => {
  assert.equal(trendOf(series(30, (m) => 120 + (Math.round(m * 6) % 3)), tol).trend, 'flat');
});

test('trendOf: growth that stops at a cap in the first half has levelled off', () => {
  const v = trendOf(series(30, (m) => Math.min(200, 100 + m * 20)), tol);
  assert.equal(v.trend, 'levelled off');
  assert.equal(v.end, 200);
  assert.ok(Math.abs(v.slopePerMin) < 0.01, `slope ${v.slopePerMin}`);
});

test('trendOf: steady growth (a leak) grows steadily, with its slope', () => {
  const v = trendOf(series(30, (m) => 100 + m * 3), tol);
  assert.equal(v.trend, 'grows steadily');
  assert.ok(Math.abs(v.slopePerMin - 3) < 0.01, `slope ${v.slopePerMin}`);
});

test('trendOf: growth that decelerates is slowing, not levelled off', () => {
  // 100 + 100·(1 − e^(−m/8)): the second half adds less than half of the first half, but more than the tolerance.
  assert.equal(trendOf(series(30, (m) => 100 + 100 * (1 - Math.exp(-m / 8))), tol).trend, 'slowing');
});

test('trendOf: a run shorter than warm-up plus six samples is too short to judge', () => {
  assert.equal(trendOf(series(2, () => 1), tol).trend, 'too short');
});

/** A 30-minute run: PostgreSQL's shared memory fills to a 34 MB cap by minute 8 (16 MB of buffers by minute 4), its private memory is flat. */
function pgRun(privateMb: (m: number) => number): Sample[] {
  return series(30, (m) => m).map(([t, m]) => ({
    t,
    load1: 10,
    procs: [
      { name: 'serve-0', rssMb: 130, fds: 31, heapMb: 50, handles: 21, lagP99: 30 },
      { name: 'postgres', rssMb: 40 + privateMb(m) + Math.min(34, 10 + m * 3), fds: 200, processes: 23, pgPrivateMb: privateMb(m), pgPrivateMaxMb: privateMb(m) / 20, pgSharedMb: Math.min(34, 10 + m * 3) },
    ],
    extra: { pgDbMb: 18 + m, pgConns: 17, pgBuffersUsedMb: Math.min(16, 4 * m), redisMb: 2, redisKeys: 16 },
  }));
}

test('judge: the PostgreSQL shared part levels off at its cap and a flat private part is flat', () => {
  const v = new Map(judge(pgRun(() => 70)).map((x) => [x.series, x]));
  assert.equal(v.get('postgres shared memory (Pss_Shmem)')?.trend, 'levelled off');
  assert.equal(v.get('postgres shared memory (Pss_Shmem)')?.end, 34);
  assert.equal(v.get('postgres private memory (Pss_Anon, all processes)')?.trend, 'flat');
  assert.equal(v.get('postgres private memory of the largest process')?.trend, 'flat');
  // Full (16 MB) from minute 4, before the warm-up ends: flat at the cap.
  assert.equal(v.get('PostgreSQL shared buffers in use')?.trend, 'flat');
  assert.equal(v.get('PostgreSQL shared buffers in use')?.end, 16);
  assert.equal(v.get('PostgreSQL database size')?.trend, 'grows steadily');
  assert.ok(v.get('PostgreSQL database size')?.expected, 'the database size is stored data, marked as expected');
});

test('judge and report: private memory growing per backend is flagged as growing, not hidden by the shared cap', () => {
  const samples = pgRun((m) => 70 + m * 2);
  const verdicts = judge(samples);
  const v = new Map(verdicts.map((x) => [x.series, x]));
  assert.equal(v.get('postgres private memory (Pss_Anon, all processes)')?.trend, 'grows steadily');
  assert.equal(v.get('postgres private memory per process (mean)')?.trend, 'grows steadily');
  assert.equal(v.get('postgres shared memory (Pss_Shmem)')?.trend, 'levelled off');
  const md = renderReport({ started: 'T', commit: 'abc', minutes: 30, rate: 4, tenants: 4, sampleS: 10, pg: { sharedBuffers: '16MB', segment: '34MB' }, cpus: 2, records: [{ start: 0, end: 30 * MIN, ms: 200, shape: 'chat', stream: false, ok: true }], notStarted: 0, samples, money: [], logErrors: [], verdicts });
  assert.match(md, /\*\*Growing steadily \(not stored data\): [^*]*postgres private memory \(Pss_Anon, all processes\)/);
  assert.match(md, /## PostgreSQL memory: private and shared/);
  assert.match(md, /it cannot exceed the segment \(34MB, of which shared_buffers 16MB\)/);
  // Minute 30's row: 23 processes, PSS, private 130 (5.65 per process), largest 6.5, shared at its 34 MB cap, 16 MB of buffers, 48 MB of data.
  assert.match(md, /\n\| 30 \| 23 \| 204\.0 \| 130\.0 \| 5\.65 \| 6\.5 \| 34\.0 \| 16\.0 \| 48\.0 \|\n/);
});
