// Stages 3 to 5 of D15: coverage snapshots, the six detectors writing their six signal tables, and
// proposals minted from signals that fired often enough.
//
// Idempotent per run bucket: a run's bucket is its start time floored to LEARNING_INTERVAL_SECONDS,
// each signal is unique per (subject, bucket) and each proposal per (source signal, subject), so a
// run repeated in the same bucket writes nothing new. A condition that persists fires once per
// bucket; LEARNING_SIGNAL_MIN_FIRES fires within 24 hours mint one proposal, which then stays
// 'minted' for good (lock 1).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Tx } from '../../store/db.ts';
import {
  DETECTORS, PRIORITY, costCellsAcrossBands, detectCells, detectCoverage, detectDrift, detectLatency,
  type Cell, type CoverageRow, type Detector, type DriftRow, type EndpointRow, type Firing,
} from './detectors.ts';
import { tryStageLock } from './evidence.repo.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface DetectOptions {
  intervalSeconds: number;
  minEvidence: number;
  coverageMin: number;
  minFires: number;
}

export interface DetectRun {
  busy: boolean;
  snapshots: number;
  signals: Record<Detector, number>;
  minted: number;
}

export const bucketStart = (now: Date, intervalSeconds: number): Date =>
  new Date(Math.floor(now.getTime() / (intervalSeconds * 1000)) * intervalSeconds * 1000);

const signalTable = (d: Detector) => sql.table(`learning_signals_${d}`);

export async function detectAndMint(tx: Tx, now: Date, o: DetectOptions): Promise<DetectRun> {
  const signals = Object.fromEntries(DETECTORS.map((d) => [d, 0])) as Record<Detector, number>;
  if (!(await tryStageLock(tx, 'detect'))) return { busy: true, snapshots: 0, signals, minted: 0 };
  const bucket = bucketStart(now, o.intervalSeconds);
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const hourAgo = new Date(now.getTime() - HOUR_MS);

  // Cells over the trailing 24 hours (patterns are hourly; the current hour counts as it is so far).
  const cells = (await sql<Cell>`
    select task_family as "taskFamily", complexity, floor_band as "floorBand", model_class as "modelClass",
           sum(call_count)::int as calls, sum(scored_count)::int as scored, sum(quality_sum)::float8 as "qualitySum",
           sum(below_floor_count)::int as "belowFloor", sum(escalated_count)::int as escalated
      from learning_patterns where window_start >= ${hourFloor(dayAgo)}
     group by 1, 2, 3, 4`.execute(tx)).rows;

  // Coverage snapshot, per family; written only when it differs from the family's last one.
  const cov = (await sql<CoverageRow & { evidence: number; scored: number; complexities: Record<string, number> }>`
    with f as (
      select task_family, complexity, sum(call_count)::int as calls, sum(evidence_count)::int as evidence, sum(scored_count)::int as scored
        from learning_patterns where window_start >= ${hourFloor(dayAgo)} group by 1, 2)
    select task_family as "taskFamily", sum(calls)::int as calls, sum(evidence)::int as evidence, sum(scored)::int as scored,
           jsonb_object_agg(complexity, calls) as complexities,
           (array_agg(complexity order by calls desc, complexity))[1] as "topComplexity"
      from f group by 1`.execute(tx)).rows;
  let snapshots = 0;
  for (const c of cov) {
    const ready = {
      cost: c.scored >= o.minEvidence,
      quality: c.scored >= o.minEvidence,
      escalation: c.calls >= o.minEvidence,
      drift: c.calls >= 2 * o.minEvidence,
      latency: c.calls >= 2 * o.minEvidence,
      coverage: c.calls >= o.coverageMin,
    };
    const r = await sql`
      insert into learning_coverage_snapshots (taken_at, task_family, evidence_count, call_count, scored_count, complexities, signals_ready)
      select ${bucket}, ${c.taskFamily}, ${c.evidence}, ${c.calls}, ${c.scored}, ${JSON.stringify(c.complexities)}::jsonb, ${JSON.stringify(ready)}::jsonb
       where not exists (
         select 1 from (select call_count, evidence_count, scored_count, complexities from learning_coverage_snapshots
                         where task_family = ${c.taskFamily} order by taken_at desc limit 1) l
          where l.call_count = ${c.calls} and l.evidence_count = ${c.evidence} and l.scored_count = ${c.scored}
            and l.complexities = ${JSON.stringify(c.complexities)}::jsonb)
      on conflict (taken_at, task_family) do nothing`.execute(tx);
    snapshots += Number(r.numAffectedRows ?? 0n);
  }

  // Drift: each (family, complexity) in the last hour against the 23 hours before it.
  const drift = (await sql<DriftRow>`
    with w as (
      select task_family, complexity, window_start >= ${hourFloor(hourAgo)} as recent,
             sum(call_count)::int as calls, sum(input_tokens_sum + output_tokens_sum)::float8 as tokens
        from learning_patterns where window_start >= ${hourFloor(dayAgo)} group by 1, 2, 3),
    fam as (select task_family, recent, sum(calls)::int as calls from w group by 1, 2)
    select r.task_family as "taskFamily", r.complexity, r.calls as "recentCalls", r.tokens as "recentTokens", fr.calls as "recentFamilyCalls",
           b.calls as "baseCalls", b.tokens as "baseTokens", fb.calls as "baseFamilyCalls"
      from w r join w b on b.task_family = r.task_family and b.complexity = r.complexity and not b.recent
      join fam fr on fr.task_family = r.task_family and fr.recent
      join fam fb on fb.task_family = r.task_family and not fb.recent
     where r.recent`.execute(tx)).rows;

  // Latency: each endpoint's histogram in the last hour against the 23 hours before it.
  const eps = (await sql<{ providerKey: string; modelId: string; region: string; modelClass: string; recent: boolean; buckets: number[] }>`
    select provider_key as "providerKey", model_id as "modelId", region, model_class as "modelClass",
           window_start >= ${hourFloor(hourAgo)} as recent, latency_buckets as buckets
      from learning_endpoint_windows where window_start >= ${hourFloor(dayAgo)}`.execute(tx)).rows;
  const byEp = new Map<string, EndpointRow>();
  for (const e of eps) {
    const k = `${e.providerKey}|${e.modelId}|${e.region}|${e.modelClass}`;
    let row = byEp.get(k);
    if (!row) byEp.set(k, (row = { providerKey: e.providerKey, modelId: e.modelId, region: e.region, modelClass: e.modelClass, recent: e.buckets.map(() => 0), base: e.buckets.map(() => 0) }));
    const into = e.recent ? row.recent : row.base;
    e.buckets.forEach((n, i) => (into[i] += n));
  }

  const firings: Firing[] = [
    ...detectCells(cells, o.minEvidence).filter((f) => f.detector !== 'cost'),
    ...detectCells(costCellsAcrossBands(cells), o.minEvidence).filter((f) => f.detector === 'cost'),
    ...detectDrift(drift, o.minEvidence),
    ...detectLatency([...byEp.values()], o.minEvidence),
    ...detectCoverage(cov, o.coverageMin),
  ];
  for (const f of firings) {
    const r = await sql`
      insert into ${signalTable(f.detector)} (subject_key, bucket_start, fired_at, task_family, complexity, floor_band, model_class, provider_key, observed)
      values (${f.subjectKey}, ${bucket}, ${now}, ${f.taskFamily ?? null}, ${f.complexity ?? null}, ${f.floorBand ?? null}, ${f.modelClass ?? null},
              ${f.providerKey ?? null}, ${JSON.stringify({ ...f.observed, override: f.override, title: f.title })}::jsonb)
      on conflict (subject_key, bucket_start) do nothing`.execute(tx);
    signals[f.detector] += Number(r.numAffectedRows ?? 0n);
  }

  // Minting: one proposal per (source signal, subject), the first time it fired minFires times in 24 hours.
  let minted = 0;
  for (const d of DETECTORS) {
    const due = (await sql<{ subject_key: string; fires: number; observed: { override: unknown; title: string } }>`
      select s.subject_key, count(*)::int as fires,
             (array_agg(s.observed order by s.fired_at desc))[1] as observed
        from ${signalTable(d)} s
       where s.fired_at > ${dayAgo}
         and not exists (select 1 from learning_proposals p where p.source_signal = ${d} and p.subject_key = s.subject_key)
       group by s.subject_key
      having count(*) >= ${o.minFires}`.execute(tx)).rows;
    for (const x of due) {
      const r = await sql`
        insert into learning_proposals (id, priority, source_signal, subject_key, override, title, fires, created_at)
        values (${randomUUID()}, ${PRIORITY[d]}, ${d}, ${x.subject_key}, ${JSON.stringify(x.observed.override)}::jsonb, ${x.observed.title}, ${x.fires}, ${now})
        on conflict (source_signal, subject_key) do nothing`.execute(tx);
      minted += Number(r.numAffectedRows ?? 0n);
    }
  }
  return { busy: false, snapshots, signals, minted };
}

const hourFloor = (d: Date) => new Date(Math.floor(d.getTime() / HOUR_MS) * HOUR_MS);
