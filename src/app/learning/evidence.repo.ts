// Stages 1 and 2 of D15: the learning outbox consumed into evidence (de-duplicated by sha256 of
// the canonical request) and rolled up into patterns (task family × complexity × response shape,
// per floor band and served class, per UTC hour) and per-endpoint latency windows.
//
// Incremental and idempotent: one batch of unconsumed outbox rows is read, aggregated and marked
// consumed in ONE transaction, so a run that dies half-way leaves nothing behind and the next run
// does the same work again. Only one consumer runs at a time (a transaction-scoped advisory lock),
// so evidence counts never race. The outbox rows are locked row by row (FOR UPDATE): the request
// path only ever INSERTs outbox rows, which row locks never block.
import { sql } from 'kysely';
import type { Db, Tx } from '../../store/db.ts';
import { floorBand } from '../../core/routing/routing-table.ts';
import { isTaskFamily } from '../../core/routing/vocabulary.ts';
import { contentHash, hourStart, responseShape } from './hashing.ts';
import { latencyBucket, LATENCY_BOUNDS_MS } from './detectors.ts';

export const EVIDENCE_BATCH = 500;
/** An outbox row waits this long for its asynchronous QA score before it is consumed without one. */
export const QA_WAIT_MS = 120_000;

interface OutboxRow {
  id: bigint;
  call_id: string;
  tenant_id: string;
  project_id: string;
  model_class: string | null;
  provider_key: string | null;
  model_id: string;
  request: unknown;
  response: unknown;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number | null;
  created_at: Date;
  task_family: string | null;
  complexity: string | null;
  escalated: boolean;
  channel: string;
  region: string | null;
  qa: { overall?: number; belowFloor?: boolean } | null;
  quality_floor: string;
}

export interface EvidenceRun {
  consumed: number;
  evidence: number;
  busy: boolean;
}

const lockKey = (name: string) => sql`pg_try_advisory_xact_lock(hashtext(${`learning:${name}`}))`;

/** Try the stage's transaction-scoped lock: false when another worker is running the stage now. */
export async function tryStageLock(tx: Tx, name: string): Promise<boolean> {
  const r = await sql<{ ok: boolean }>`select ${lockKey(name)} as ok`.execute(tx);
  return r.rows[0].ok;
}

/** Consume up to EVIDENCE_BATCH outbox rows. Call inside asLearning. */
export async function consumeOutbox(tx: Tx, now: Date, batch = EVIDENCE_BATCH): Promise<EvidenceRun> {
  if (!(await tryStageLock(tx, 'evidence'))) return { consumed: 0, evidence: 0, busy: true };
  const qaCutoff = new Date(now.getTime() - QA_WAIT_MS);
  // The claim's plan is fixed: index scans in id order, joined by index probes. On an outbox that
  // grows by thousands of rows a minute, statistics lag, and with "few unconsumed rows" estimates
  // PostgreSQL chose bitmap scans of every unconsumed row, a sort, and a sequential scan of the call
  // log to hash-join (25 ms for 500 rows instead of 4 ms, measured). For this transaction only;
  // every statement in it is index-driven by design.
  await sql`select set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
                   set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`.execute(tx);
  // Only rows that are ready (migration 029): the first of the rows whose settlement carried their
  // QA score, and, of the rows waiting for theirs, those among the oldest `batch` whose score is in
  // or whose wait is over. Each batch reads at most 2 × batch index entries and `batch` call logs,
  // however many rows are waiting; a waiting row further back is reached once the ones before it are
  // ready (the scorer works oldest first, and age makes every row ready in the end).
  const { rows } = await sql<OutboxRow>`
    with ready as (
      select id from learning_outbox where consumed_at is null and not qa_wait order by id limit ${batch}
    ), oldest_waiting as (
      select id, call_id, created_at from learning_outbox where consumed_at is null and qa_wait order by id limit ${batch}
    ), pick as (
      select id from ready
      union all
      select w.id from oldest_waiting w join call_logs c on c.id = w.call_id
       where c.qa_scored_at is not null or w.created_at < ${qaCutoff}
    )
    select o.id, o.call_id, o.tenant_id, o.project_id, o.model_class, o.provider_key, o.model_id, o.request, o.response,
           o.input_tokens, o.output_tokens, o.latency_ms, o.created_at,
           c.task_family, c.complexity, c.escalated, c.channel, c.region, c.qa, p.quality_floor::text as quality_floor
      from (select id from pick order by id limit ${batch}) k
      join learning_outbox o on o.id = k.id
      join call_logs c on c.id = o.call_id
      join projects p on p.id = o.project_id
     where o.consumed_at is null
     order by o.id
       for update of o`.execute(tx);
  if (rows.length === 0) return { consumed: 0, evidence: 0, busy: false };

  const evidence = new Map<string, { hash: string; r: OutboxRow; band: string; shape: string; n: number; inTok: number; outTok: number; first: Date; last: Date; lastCall: string }>();
  const patterns = new Map<string, { w: Date; f: string; c: string; shape: string; band: string; cls: string; calls: number; scored: number; q: number; below: number; esc: number; inTok: number; outTok: number; lat: number; hashes: Set<string> }>();
  const endpoints = new Map<string, { w: Date; p: string; m: string; region: string; cls: string; n: number; buckets: number[] }>();
  const marks: Array<{ id: string; request_sha256: string | null; response_sha256: string | null; hash: string | null }> = [];

  for (const r of rows) {
    // Calls without a classification (or the QA judge's own calls) teach nothing: consumed, no evidence.
    const usable = r.request != null && isTaskFamily(r.task_family) && r.complexity != null && r.channel !== 'qa:judge';
    const reqHash = r.request != null ? contentHash(r.request) : null;
    const resHash = r.response != null ? contentHash(r.response) : null;
    marks.push({ id: String(r.id), request_sha256: reqHash, response_sha256: resHash, hash: usable ? reqHash : null });
    if (!usable || reqHash === null) continue;
    const band = floorBand(Number(r.quality_floor));
    const shape = responseShape(r.response);
    const cls = r.model_class ?? 'unknown';
    const e = evidence.get(reqHash);
    if (e) {
      e.n += 1;
      e.inTok += r.input_tokens;
      e.outTok += r.output_tokens;
      e.last = r.created_at;
      e.lastCall = r.call_id;
    } else {
      evidence.set(reqHash, { hash: reqHash, r, band, shape, n: 1, inTok: r.input_tokens, outTok: r.output_tokens, first: r.created_at, last: r.created_at, lastCall: r.call_id });
    }
    const w = hourStart(r.created_at);
    const pk = [w.toISOString(), r.task_family, r.complexity, shape, band, cls].join('|');
    let p = patterns.get(pk);
    if (!p) patterns.set(pk, (p = { w, f: r.task_family!, c: r.complexity!, shape, band, cls, calls: 0, scored: 0, q: 0, below: 0, esc: 0, inTok: 0, outTok: 0, lat: 0, hashes: new Set() }));
    p.calls += 1;
    p.hashes.add(reqHash);
    if (typeof r.qa?.overall === 'number') {
      p.scored += 1;
      p.q += r.qa.overall;
      if (r.qa.belowFloor) p.below += 1;
    }
    if (r.escalated) p.esc += 1;
    p.inTok += r.input_tokens;
    p.outTok += r.output_tokens;
    p.lat += r.latency_ms ?? 0;
    if (r.provider_key && r.latency_ms != null) {
      const ek = [w.toISOString(), r.provider_key, r.model_id, r.region ?? '', cls].join('|');
      let ep = endpoints.get(ek);
      if (!ep) endpoints.set(ek, (ep = { w, p: r.provider_key, m: r.model_id, region: r.region ?? '', cls, n: 0, buckets: LATENCY_BOUNDS_MS.map(() => 0) }));
      ep.n += 1;
      ep.buckets[latencyBucket(r.latency_ms)] += 1;
    }
  }

  // Evidence: one row per content hash; a repeat only adds to its counters.
  const ev = [...evidence.values()].map((e) => ({
    content_hash: e.hash, tenant_id: e.r.tenant_id, project_id: e.r.project_id, first_call_id: e.r.call_id, last_call_id: e.lastCall,
    task_family: e.r.task_family, complexity: e.r.complexity, floor_band: e.band, response_shape: e.shape, model_class: e.r.model_class,
    occurrences: e.n, input_tokens_sum: e.inTok, output_tokens_sum: e.outTok, first_seen_at: e.first.toISOString(), last_seen_at: e.last.toISOString(),
  }));
  const inserted = ev.length === 0 ? [] : (await sql<{ id: bigint; content_hash: string; fresh: boolean }>`
    insert into learning_evidence as e (content_hash, tenant_id, project_id, first_call_id, last_call_id, task_family, complexity,
      floor_band, response_shape, model_class, occurrences, input_tokens_sum, output_tokens_sum, first_seen_at, last_seen_at)
    select x.content_hash, x.tenant_id, x.project_id, x.first_call_id, x.last_call_id, x.task_family, x.complexity, x.floor_band,
           x.response_shape, x.model_class, x.occurrences, x.input_tokens_sum, x.output_tokens_sum, x.first_seen_at, x.last_seen_at
      from jsonb_to_recordset(${JSON.stringify(ev)}::jsonb) as x(content_hash text, tenant_id uuid, project_id uuid, first_call_id uuid,
           last_call_id uuid, task_family text, complexity text, floor_band text, response_shape text, model_class text, occurrences int,
           input_tokens_sum bigint, output_tokens_sum bigint, first_seen_at timestamptz, last_seen_at timestamptz)
    on conflict (content_hash) do update set
      occurrences = e.occurrences + excluded.occurrences,
      input_tokens_sum = e.input_tokens_sum + excluded.input_tokens_sum,
      output_tokens_sum = e.output_tokens_sum + excluded.output_tokens_sum,
      last_call_id = excluded.last_call_id,
      last_seen_at = greatest(e.last_seen_at, excluded.last_seen_at)
    returning e.id, e.content_hash, (xmax = 0) as fresh`.execute(tx)).rows;
  const idOf = new Map(inserted.map((i) => [i.content_hash, i.id]));
  const fresh = new Set(inserted.filter((i) => i.fresh).map((i) => i.content_hash));

  const pat = [...patterns.values()].map((p) => ({
    window_start: p.w.toISOString(), task_family: p.f, complexity: p.c, response_shape: p.shape, floor_band: p.band, model_class: p.cls,
    call_count: p.calls, evidence_count: [...p.hashes].filter((h) => fresh.has(h)).length, scored_count: p.scored, quality_sum: p.q,
    below_floor_count: p.below, escalated_count: p.esc, input_tokens_sum: p.inTok, output_tokens_sum: p.outTok, latency_ms_sum: p.lat,
  }));
  if (pat.length > 0) {
    await sql`
      insert into learning_patterns as p (window_start, task_family, complexity, response_shape, floor_band, model_class, call_count,
        evidence_count, scored_count, quality_sum, below_floor_count, escalated_count, input_tokens_sum, output_tokens_sum,
        latency_ms_sum, updated_at)
      select x.*, ${now} from jsonb_to_recordset(${JSON.stringify(pat)}::jsonb) as x(window_start timestamptz, task_family text,
        complexity text, response_shape text, floor_band text, model_class text, call_count int, evidence_count int, scored_count int,
        quality_sum float8, below_floor_count int, escalated_count int, input_tokens_sum bigint, output_tokens_sum bigint, latency_ms_sum bigint)
      on conflict (window_start, task_family, complexity, response_shape, floor_band, model_class) do update set
        call_count = p.call_count + excluded.call_count,
        evidence_count = p.evidence_count + excluded.evidence_count,
        scored_count = p.scored_count + excluded.scored_count,
        quality_sum = p.quality_sum + excluded.quality_sum,
        below_floor_count = p.below_floor_count + excluded.below_floor_count,
        escalated_count = p.escalated_count + excluded.escalated_count,
        input_tokens_sum = p.input_tokens_sum + excluded.input_tokens_sum,
        output_tokens_sum = p.output_tokens_sum + excluded.output_tokens_sum,
        latency_ms_sum = p.latency_ms_sum + excluded.latency_ms_sum,
        updated_at = excluded.updated_at`.execute(tx);
  }
  const eps = [...endpoints.values()].map((e) => ({
    window_start: e.w.toISOString(), provider_key: e.p, model_id: e.m, region: e.region, model_class: e.cls, call_count: e.n, latency_buckets: e.buckets,
  }));
  if (eps.length > 0) {
    await sql`
      insert into learning_endpoint_windows as w (window_start, provider_key, model_id, region, model_class, call_count, latency_buckets, updated_at)
      select x.window_start, x.provider_key, x.model_id, x.region, x.model_class, x.call_count,
             array(select jsonb_array_elements_text(x.latency_buckets)::int), ${now}
        from jsonb_to_recordset(${JSON.stringify(eps)}::jsonb) as x(window_start timestamptz, provider_key text, model_id text,
             region text, model_class text, call_count int, latency_buckets jsonb)
      on conflict (window_start, provider_key, model_id, region, model_class) do update set
        call_count = w.call_count + excluded.call_count,
        latency_buckets = array(select a + b from unnest(w.latency_buckets, excluded.latency_buckets) as t(a, b)),
        updated_at = excluded.updated_at`.execute(tx);
  }
  const m = marks.map((x) => ({ ...x, evidence_id: x.hash ? String(idOf.get(x.hash)) : null }));
  await sql`
    update learning_outbox o set consumed_at = ${now}, request_sha256 = x.request_sha256, response_sha256 = x.response_sha256,
           evidence_id = x.evidence_id
      from jsonb_to_recordset(${JSON.stringify(m)}::jsonb) as x(id bigint, request_sha256 text, response_sha256 text, evidence_id bigint)
     where o.id = x.id`.execute(tx);
  return { consumed: rows.length, evidence: fresh.size, busy: false };
}

/**
 * Retention (D15): consumed outbox rows older than `retentionDays` lose their request and response
 * bodies; their hashes stay, so evidence still traces back to the call. Bounded per run.
 */
export async function dropExpiredBodies(tx: Tx, now: Date, retentionDays: number, limit = 5_000): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const r = await sql`
    update learning_outbox o set request = null, response = null, bodies_dropped_at = ${now}
     where o.id in (select id from learning_outbox
                     where consumed_at is not null and bodies_dropped_at is null and created_at < ${cutoff}
                     order by created_at limit ${limit} for update skip locked)`.execute(tx);
  return Number(r.numAffectedRows ?? 0n);
}

/**
 * The unconsumed outbox rows, for the pacer's "at the cap or not": an upper bound when it is under
 * `exactFrom`, else the exact count up to `limit`. Cheap in the usual case: every unconsumed row
 * lies between the oldest unconsumed id and the newest id, so a span under `exactFrom` settles it
 * from three index probes; only a larger span is counted, at most `limit` entries of each of the
 * two indexes of unconsumed rows (ready, waiting for a QA score: migration 029).
 */
export async function outboxBacklog(db: Db, exactFrom: number, limit: number): Promise<number> {
  const span = await sql<{ lo: string | null; hi: string | null }>`
    select least((select min(id) from learning_outbox where consumed_at is null and not qa_wait),
                 (select min(id) from learning_outbox where consumed_at is null and qa_wait))::text as lo,
           (select max(id) from learning_outbox)::text as hi`.execute(db);
  const { lo, hi } = span.rows[0];
  if (lo === null || hi === null) return 0;
  const upper = Number(BigInt(hi) - BigInt(lo) + 1n);
  if (upper < exactFrom) return upper;
  const r = await sql<{ n: number }>`
    select least(${limit}, (select count(*) from (select 1 from learning_outbox where consumed_at is null and not qa_wait limit ${limit}) x)
                         + (select count(*) from (select 1 from learning_outbox where consumed_at is null and qa_wait limit ${limit}) y))::int as n`.execute(db);
  return r.rows[0].n;
}
