// Where one call's time goes: Switchboard runs in this process (the same startRuntime as
// `npm start`, on the same embedded database, against the same simulator) and calls arrive one at
// a time over HTTP. Each collaborator the pipeline reaches through its injected services is
// wrapped with a timer — key authentication, the rate limiter, the call context, the reservation,
// the upstream request, the settlement — and whatever is left of the client-observed time is the
// in-process work: HTTP framing, parsing, Layers 1 and 2, translation, the inline check, rendering.
// Nothing in src/ is changed for this: the wrappers replace members of the service container.
//
// The settlement is split further: its statement's round trip (the database pool's executeQuery,
// timed for the settlement's own statements), of which PostgreSQL's execution time comes from
// pg_stat_statements (the rest of the round trip is the commit's WAL flush and the socket), and
// the Node work around it (pricing, the HMAC seal, the rows as JSON, the queue, and after the
// commit the event relay's kick and the other post-settlement steps).
import { Pool } from 'undici';
import pg from 'pg';
import { CLAIM, FAST, HEADS, WRITE } from '../src/app/money/settlement.repo.ts';
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/runtime/runtime.ts';
import { inProcessEnv } from './in-process-env.ts';
import { percentile } from './load.ts';

export interface StageRow {
  stage: string;
  p50Us: number;
  p99Us: number;
  meanUs: number;
}

export interface StageBreakdown {
  mode: 'json' | 'stream';
  calls: number;
  rows: StageRow[];
  /**
   * CPU of this whole process per call (Switchboard plus the one-connection client), µs. Calls
   * run one at a time, so unlike wall time it hardly moves with the disk's commit latency: the
   * steadiest figure for comparing two builds.
   */
  cpuUsPerCall: number;
  /** Settlement transactions of the measured calls, by path (app/money/settlement.ts). */
  settlements: { fast: number; locked: number; fellBack: number };
  /** The settlement's parts, mean µs per call (see the module header). */
  settle: { statementRoundTripUs: number; executionUs: number; statements: number };
}

const STAGES = ['authenticate key', 'rate limit', 'load call context', 'reserve', 'upstream request (to headers)', 'settle + seal'] as const;
type Stage = (typeof STAGES)[number];

export async function benchStages(o: {
  databaseUrl: string;
  dataDir: string;
  simUrl: string;
  ledgerSecret: string;
  key: string;
  jsonBody: string;
  streamBody: string;
  ms: number;
}): Promise<StageBreakdown[]> {
  const env = inProcessEnv({ databaseUrl: o.databaseUrl, dataDir: o.dataDir, simUrl: o.simUrl, ledgerSecret: o.ledgerSecret });
  const rt = await startRuntime(loadConfig(env), { http: true, worker: false });
  const s = rt.services;
  let current: Record<Stage, number> = Object.fromEntries(STAGES.map((k) => [k, 0])) as Record<Stage, number>;
  const timed = <A extends unknown[], R>(stage: Stage, fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const t0 = process.hrtime.bigint();
      try {
        return await fn(...a);
      } finally {
        current[stage] += Number(process.hrtime.bigint() - t0) / 1000;
      }
    };
  const acc = s.calls.stages;
  s.calls.stages = {
    ...acc,
    loadContext: timed('load call context', acc.loadContext),
    admit: timed('reserve', acc.admit),
    settle: timed('settle + seal', acc.settle),
    // What follows the commit in process is part of the settlement's Node work, as it was before.
    afterSettlement: (...a: Parameters<typeof acc.afterSettlement>) => {
      const t0 = process.hrtime.bigint();
      acc.afterSettlement(...a);
      current['settle + seal'] += Number(process.hrtime.bigint() - t0) / 1000;
    },
  };
  // The settlement's statements, timed at the pool (the settler reaches it through s.db).
  const SETTLE_SQL = new Set([FAST, WRITE, CLAIM, HEADS]);
  let settleRoundTripUs = 0;
  let settleStatements = 0;
  const exec = s.db.executeQuery.bind(s.db);
  s.db.executeQuery = (async (q: Parameters<typeof exec>[0], ...rest: unknown[]) => {
    if (!SETTLE_SQL.has((q as { sql?: string }).sql ?? '')) return (exec as (...a: unknown[]) => unknown)(q, ...rest);
    const t0 = process.hrtime.bigint();
    try {
      return await (exec as (...a: unknown[]) => Promise<unknown>)(q, ...rest);
    } finally {
      settleRoundTripUs += Number(process.hrtime.bigint() - t0) / 1000;
      settleStatements++;
    }
  }) as typeof s.db.executeQuery;
  const stats = new pg.Client({ connectionString: o.databaseUrl });
  await stats.connect();
  /**
   * PostgreSQL's execution time of the settlement's statements so far, ms (pg_stat_statements, when
   * loaded). Its texts have their constants replaced by parameters, so each statement is found by a
   * fragment of its own that holds none.
   */
  const executionMs = async (): Promise<number> => {
    try {
      const fragments = ['%select sb_settle_check(%', '%reserved_micros = v.reserved, ledger_seq = v.seq%', '%from wallets where tenant_id = any(%order by tenant_id for update%', '%as lease from c%'];
      const r = await stats.query<{ ms: number | null }>('select sum(total_exec_time) as ms from pg_stat_statements where query like any($1::text[])', [fragments]);
      return Number(r.rows[0]?.ms ?? 0);
    } catch {
      return Number.NaN;
    }
  };
  const up = s.calls.upstream;
  up.post = timed('upstream request (to headers)', up.post.bind(up));
  s.keyCache.authenticate = timed('authenticate key', s.keyCache.authenticate.bind(s.keyCache));
  s.limiter.take = timed('rate limit', s.limiter.take.bind(s.limiter));

  const pool = new Pool(rt.url, { connections: 1, pipelining: 1 });
  const out: StageBreakdown[] = [];
  try {
    for (const mode of ['json', 'stream'] as const) {
      const body = mode === 'json' ? o.jsonBody : o.streamBody;
      const perStage = new Map<string, number[]>([...STAGES, 'everything else in process', 'total (client-observed)'].map((k) => [k, []]));
      const one = async (record: boolean) => {
        current = Object.fromEntries(STAGES.map((k) => [k, 0])) as Record<Stage, number>;
        const t0 = process.hrtime.bigint();
        const res = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${o.key}` }, body });
        await res.body.text();
        const total = Number(process.hrtime.bigint() - t0) / 1000;
        if (res.statusCode !== 200) throw new Error(`stage run: HTTP ${res.statusCode}`);
        if (!record) return;
        let known = 0;
        for (const k of STAGES) {
          perStage.get(k)!.push(current[k]);
          known += current[k];
        }
        perStage.get('everything else in process')!.push(total - known);
        perStage.get('total (client-observed)')!.push(total);
      };
      const warmEnd = Date.now() + 500;
      while (Date.now() < warmEnd) await one(false);
      const end = Date.now() + o.ms;
      let calls = 0;
      const cpu0 = process.cpuUsage();
      const st0 = { ...s.settler.stats };
      const exec0 = await executionMs();
      [settleRoundTripUs, settleStatements] = [0, 0];
      while (Date.now() < end && calls < 50_000) {
        await one(true);
        calls++;
      }
      const cpu = process.cpuUsage(cpu0);
      const exec1 = await executionMs();
      const rows = [...perStage].map(([stage, xs]) => {
        const sorted = Float64Array.from(xs).sort();
        return { stage, p50Us: percentile(sorted, 50), p99Us: percentile(sorted, 99), meanUs: xs.reduce((a, b) => a + b, 0) / xs.length };
      });
      const st = s.settler.stats;
      const settlements = { fast: st.fast - st0.fast, locked: st.locked - st0.locked, fellBack: st.fellBack - st0.fellBack };
      const settle = { statementRoundTripUs: settleRoundTripUs / calls, executionUs: ((exec1 - exec0) * 1000) / calls, statements: settleStatements / calls };
      out.push({ mode, calls, rows, cpuUsPerCall: (cpu.user + cpu.system) / calls, settlements, settle });
    }
  } finally {
    await stats.end().catch(() => {});
    await pool.close();
    await rt.close();
  }
  return out;
}

export function stagesMarkdown(b: StageBreakdown[]): string {
  const f = (x: number) => (x / 1000).toFixed(3);
  const lines: string[] = [];
  const [json, stream] = [b.find((x) => x.mode === 'json'), b.find((x) => x.mode === 'stream')];
  if (!json || !stream) return '';
  lines.push(`| stage | non-streamed p50 ms | p99 ms | mean ms | streamed p50 ms | p99 ms | mean ms |`);
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of json.rows) {
    const t = stream.rows.find((x) => x.stage === r.stage)!;
    lines.push(`| ${r.stage} | ${f(r.p50Us)} | ${f(r.p99Us)} | ${f(r.meanUs)} | ${f(t.p50Us)} | ${f(t.p99Us)} | ${f(t.meanUs)} |`);
  }
  lines.push(
    '',
    `${json.calls} non-streamed and ${stream.calls} streamed calls, one at a time. Percentiles are per stage, so they do not add up; means do. ` +
      `CPU of the process per call (Switchboard and its one-connection client): ${json.cpuUsPerCall.toFixed(0)} µs non-streamed, ${stream.cpuUsPerCall.toFixed(0)} µs streamed.`,
      `Settlement transactions (fast path / locking path / fast attempts that fell back): ${json.settlements.fast} / ${json.settlements.locked} / ${json.settlements.fellBack} non-streamed, ${stream.settlements.fast} / ${stream.settlements.locked} / ${stream.settlements.fellBack} streamed.`,
    '',
  );
  // The settlement, stage by stage (means per call; they add up to the "settle + seal" mean).
  const parts = (x: StageBreakdown) => {
    const total = x.rows.find((r) => r.stage === 'settle + seal')!.meanUs;
    const trip = x.settle.statementRoundTripUs;
    return [
      ['Node before and after the statement (pricing, HMAC seal, rows as JSON, queue; after the commit: event relay kick, threshold and source notes)', total - trip],
      ['statement round trip, of which:', trip],
      ['\u2003PostgreSQL executing the statement (pg_stat_statements)', x.settle.executionUs],
      ['\u2003the commit (WAL flush to disk) and the socket', trip - x.settle.executionUs],
      ['settle + seal, in all', total],
    ] as const;
  };
  const pj = parts(json);
  const ps = parts(stream);
  lines.push('Inside the settlement (means per call, ms):', '', '| part | non-streamed | streamed |', '| --- | ---: | ---: |');
  for (let i = 0; i < pj.length; i++) lines.push(`| ${pj[i][0]} | ${f(pj[i][1])} | ${f(ps[i][1])} |`);
  lines.push('', `Settlement statements per call: ${json.settle.statements.toFixed(2)} non-streamed, ${stream.settle.statements.toFixed(2)} streamed (one is the fast path's single statement).`, '');
  return lines.join('\n');
}
