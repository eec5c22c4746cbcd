// In-process micro-benchmarks of the layers a proxied call crosses, each measured alone:
//   - Layer 1 decision on a 200-token and an 8k-token prompt (core/routing/bench.ts fixtures);
//   - shape translation per (client shape, provider wire) pair: parse the client request, build
//     the upstream request, read the upstream response, render the client response — the wire
//     functions alone, and again with the JSON text in and out that the HTTP hop adds;
//   - settlements per second with the real money path (the pipeline's own accounting module:
//     reserve, then settle in one transaction that seals the ledger entry) against embedded
//     PostgreSQL, for one hot tenant and for 100 tenants, each chain verified afterwards.
// Standalone:  node --import tsx bench/micro.ts   (starts its own embedded PostgreSQL)
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/runtime/runtime.ts';
import type { Services } from '../src/app/shared/services.ts';
import type { Db } from '../src/store/db.ts';
import type { CallDeps } from '../src/app/calls/pipeline.ts';
import { sealedRowOf } from '../src/app/money/ledger-view.ts';
import { evictCallContexts } from '../src/app/money/wallet.ts';
import { verifyChain } from '../src/core/ledger/seal.ts';
import { layer1BenchCase } from '../src/core/routing/bench.ts';
import { decideLayer1 } from '../src/core/routing/layer1.ts';
import { chooseEndpoints, endpointsFromPriceBook, requiredCapabilities } from '../src/core/routing/layer2.ts';
import { estimateInputTokens } from '../src/core/pricing/estimate.ts';
import { findModel } from '../src/core/pricing/price-book.ts';
import { worstCaseCostMicros } from '../src/core/pricing/cost.ts';
import { inlineCheck } from '../src/core/quality/index.ts';
import type { CanonicalRequest, ClientShape } from '../src/core/canonical/types.ts';
import { WIRES, type ParseContext } from '../src/wire/index.ts';
import { simulateAnswer, toResponse } from '../src/sim/answer.ts';
import { startEmbeddedPostgres } from '../src/store/embedded.ts';
import { percentile } from './load.ts';
import { treeCpuUs } from './proc.ts';
import { createBenchTenant } from './tenants.ts';

type Accounting = CallDeps['stages'];
type CallCtx = Awaited<ReturnType<Accounting['loadContext']>>;
type SettleFacts = Parameters<Accounting['settle']>[1];

export interface TimingRow {
  label: string;
  iterations: number;
  p50Us: number;
  p99Us: number;
  meanUs: number;
}

export interface TranslationRow {
  client: ClientShape;
  provider: ClientShape;
  wire: TimingRow;
  withJson: TimingRow;
}

export interface SettlementRow {
  label: string;
  tenants: number;
  concurrency: number;
  settlements: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  chains: number;
  entries: number;
  verified: boolean;
  firstBroken: string | null;
}

export interface MicroResults {
  layer1: TimingRow[];
  translation: TranslationRow[];
  settlements: SettlementRow[];
}

const now = () => process.hrtime.bigint();

/** Time `fn` call by call: warm up, then sample for `ms` (at most `max` calls). */
function timeCalls(label: string, fn: () => unknown, ms: number, max = 500_000): TimingRow {
  const warmEnd = now() + 200_000_000n;
  let sink = 0;
  while (now() < warmEnd) sink += fn() ? 1 : 0;
  const samples = new Float64Array(max);
  let n = 0;
  const end = now() + BigInt(ms) * 1_000_000n;
  let total = 0;
  while (n < max) {
    const t0 = now();
    sink += fn() ? 1 : 0;
    const t1 = now();
    const us = Number(t1 - t0) / 1000;
    samples[n++] = us;
    total += us;
    if (t1 >= end) break;
  }
  if (sink < 0) console.log(sink); // keeps the calls observable to the optimiser
  const sorted = samples.slice(0, n).sort();
  return { label, iterations: n, p50Us: percentile(sorted, 50), p99Us: percentile(sorted, 99), meanUs: total / n };
}

export function benchLayer1(ms = 1000): TimingRow[] {
  return [200, 8192].map((tokens) => {
    const c = layer1BenchCase(tokens);
    return timeCalls(`${tokens === 8192 ? '8k' : tokens}-token prompt`, c.run, ms);
  });
}

// ~200-token client requests in each shape: a system prompt, one earlier exchange, a question.
const SYSTEM = 'You are a support assistant for an online bookshop. Answer briefly and politely, and say when you are not sure.';
const Q1 = 'Hi! I ordered two paperbacks last Tuesday, order 48213, and the tracking page has not changed since Thursday.';
const A1 = 'Thanks for the details. Parcels sometimes sit at the sorting centre for two or three days before the next scan appears.';
const Q2 = 'It is a birthday present for Saturday. Can you tell me whether it will arrive in time, and what I can do if it does not?';

const CLIENT_BODIES: Record<ClientShape, { body: Record<string, unknown>; ctx?: ParseContext }> = {
  openai: {
    body: {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: Q1 },
        { role: 'assistant', content: A1 },
        { role: 'user', content: Q2 },
      ],
      max_tokens: 300,
      temperature: 0.3,
    },
  },
  anthropic: {
    body: {
      model: 'claude-haiku-4-5',
      system: SYSTEM,
      messages: [
        { role: 'user', content: Q1 },
        { role: 'assistant', content: A1 },
        { role: 'user', content: [{ type: 'text', text: Q2 }] },
      ],
      max_tokens: 300,
      temperature: 0.3,
    },
  },
  gemini: {
    body: {
      systemInstruction: { parts: [{ text: SYSTEM }] },
      contents: [
        { role: 'user', parts: [{ text: Q1 }] },
        { role: 'model', parts: [{ text: A1 }] },
        { role: 'user', parts: [{ text: Q2 }] },
      ],
      generationConfig: { maxOutputTokens: 300, temperature: 0.3 },
    },
    ctx: { model: 'gemini-2.5-flash', stream: false },
  },
};

const UPSTREAM_MODEL: Record<ClientShape, string> = { openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5', gemini: 'gemini-2.5-flash' };
const SHAPES: ClientShape[] = ['openai', 'anthropic', 'gemini'];

export function benchTranslation(ms = 250): TranslationRow[] {
  const rows: TranslationRow[] = [];
  for (const client of SHAPES) {
    const cw = WIRES[client];
    const { body, ctx } = CLIENT_BODIES[client];
    const bodyText = JSON.stringify(body);
    const first = cw.parseRequest(body, ctx);
    if (!first.ok) throw new Error(`${client} sample request does not parse: ${first.message}`);
    const canonical: CanonicalRequest = first.value;
    for (const provider of SHAPES) {
      const pw = WIRES[provider];
      const id = `bench${client}${provider}`;
      const upstreamJson = pw.renderResponse(toResponse(simulateAnswer(canonical, id), id, UPSTREAM_MODEL[provider]), canonical);
      const upstreamText = JSON.stringify(upstreamJson);
      const upstreamObj = JSON.parse(upstreamText) as unknown;
      const once = (parsedBody: unknown, upstreamBody: unknown, json: boolean): unknown => {
        const p = cw.parseRequest(parsedBody, ctx);
        if (!p.ok) throw new Error(p.message);
        const up = pw.buildUpstreamRequest(p.value, UPSTREAM_MODEL[provider]);
        const upText = json ? JSON.stringify(up.body) : up.body;
        const r = pw.parseUpstreamResponse(upstreamBody);
        if (!r.ok) throw new Error(r.message);
        const out = cw.renderResponse(r.value, p.value);
        return json ? (upText as string).length + JSON.stringify(out).length : out;
      };
      rows.push({
        client,
        provider,
        wire: timeCalls(`${client}→${provider}`, () => once(body, upstreamObj, false), ms),
        withJson: timeCalls(`${client}→${provider} +JSON`, () => once(JSON.parse(bodyText), JSON.parse(upstreamText), true), ms),
      });
    }
  }
  return rows;
}

/** A benchmark tenant, resolved through the real key cache and call-context loader. */
async function benchTenant(s: Services, accounting: Accounting, i: number, creditMicros: bigint): Promise<CallCtx> {
  const t = await createBenchTenant(s.db, s.secrets.ledger, String(i), creditMicros);
  const principal = await s.keyCache.authenticate(t.key);
  if (!principal) throw new Error('bench key did not authenticate');
  // One billed call first, as in production: the project becomes live, and a live project's
  // settlement has no stage move to make. The context is then reloaded (the proxy reloads it
  // every few seconds), so the measured settlements are those of a project in steady use.
  await settleLoad(s, accounting, 'warm-up', [await accounting.loadContext(s, principal)], 1, 60_000, 1);
  evictCallContexts(s, t.tenantId);
  const ctx = await accounting.loadContext(s, principal);
  if (ctx.stage !== 'live') throw new Error(`bench project is ${ctx.stage} after a billed call`);
  return ctx;
}

/** Recompute every seal of a tenant's chain (HMAC over prevHash || canonical payload). */
export async function verifyTenantChain(db: Db, secret: Buffer, tenantId: string) {
  const rows = await db.selectFrom('ledger_entries').selectAll().where('tenant_id', '=', tenantId).orderBy('seq', 'asc').execute();
  return verifyChain(rows.map(sealedRowOf), secret);
}

/** The facts of one settled call, built the way the pipeline builds them (outside the timing). */
function callTemplate() {
  const parsed = WIRES.openai.parseRequest(CLIENT_BODIES.openai.body);
  if (!parsed.ok) throw new Error(parsed.message);
  const call = parsed.value;
  const decision = decideLayer1(call, { qualityFloor: 0.6 });
  const choice = chooseEndpoints({
    modelClass: decision.modelClass,
    taskFamily: decision.taskFamily,
    candidates: endpointsFromPriceBook(),
    health: {},
    requiredCapabilities: requiredCapabilities(call),
    now: Date.now(),
  });
  const endpoint = choice.endpoints[0];
  if (!endpoint) throw new Error('no endpoint for the settlement template');
  const m = findModel(endpoint.model);
  const worst = worstCaseCostMicros({ ...endpoint, maxOutputTokens: m?.maxOutputTokens }, estimateInputTokens(call), call.maxTokens ?? 4096);
  const id = 'bench-settle';
  const response = toResponse(simulateAnswer(call, id), id, endpoint.model);
  const route = { modelClass: decision.modelClass, endpoints: [endpoint], worstMicros: worst, dearest: endpoint, inputTokens: estimateInputTokens(call) };
  return { call, decision, endpoint, worst, route, response, qa: inlineCheck(call, response) };
}

async function settleLoad(
  s: Services,
  accounting: Accounting,
  label: string,
  ctxs: CallCtx[],
  concurrency: number,
  ms: number,
  maxOps: number,
  /** Called when the load ends, before the chains are verified (CPU readings that leave the verification out). */
  loaded?: () => void,
): Promise<SettlementRow> {
  const tpl = callTemplate();
  const lat: number[] = [];
  let next = 0;
  const t0 = now();
  const end = t0 + BigInt(ms) * 1_000_000n;
  const worker = async () => {
    while (now() < end && next < maxOps) {
      const ctx = ctxs[next++ % ctxs.length];
      const callId = randomUUID();
      const started = now();
      const reservation = await accounting.admit(s, ctx, callId, tpl.route, tpl.call);
      const facts: SettleFacts = {
        ctx,
        call: tpl.call,
        callId,
        parentCallId: null,
        attempt: 1,
        decision: tpl.decision,
        modelClass: tpl.decision.modelClass,
        endpoint: tpl.endpoint,
        reservation,
        usage: tpl.response.usage,
        latencyMs: 1,
        channel: 'proxy:chat',
        shape: 'openai',
        response: tpl.response,
        qa: tpl.qa,
        escalated: false,
      };
      accounting.afterSettlement(s, ctx, facts.channel, await accounting.settle(s, facts));
      lat.push(Number(now() - started) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(now() - t0) / 1e9;
  loaded?.();
  let verified = true;
  let firstBroken: string | null = null;
  let entries = 0;
  for (const ctx of ctxs) {
    const v = await verifyTenantChain(s.db, s.secrets.ledger, ctx.tenantId);
    entries += v.checked;
    if (!v.verified && verified) {
      verified = false;
      firstBroken = v.firstBroken;
    }
  }
  const sorted = Float64Array.from(lat).sort();
  return {
    label,
    tenants: ctxs.length,
    concurrency,
    settlements: lat.length,
    seconds,
    perSecond: lat.length / seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    chains: ctxs.length,
    entries,
    verified,
    firstBroken,
  };
}

/**
 * Concurrencies of the settlement runs: 16 calls in flight, and 64. A tenant making 2,000 calls a
 * second at an LLM call's usual 0.5–5 s has 1,000 or more in flight, so 64 is still conservative.
 */
/** Switchboard's services without HTTP or the worker, on fresh secrets: the settlement benches' runtime. */
function settlementRuntime(databaseUrl: string, dataDir: string) {
  const cfg = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    LEDGER_SECRET: randomBytes(32).toString('hex'),
  });
  return startRuntime(cfg, { http: false, worker: false, simUrl: null });
}

export const SETTLE_CONCURRENCIES = [16, 64];

export async function benchSettlements(databaseUrl: string, opts: { ms?: number; concurrencies?: number[]; dataDir: string }): Promise<SettlementRow[]> {
  const rt = await settlementRuntime(databaseUrl, opts.dataDir);
  try {
    const s = rt.services;
    const accounting = s.calls.stages;
    const credit = 1_000_000_000_000n; // $1M: no run can exhaust it
    const hot = [await benchTenant(s, accounting, 0, credit)];
    const many: CallCtx[] = [];
    for (let i = 1; i <= 100; i++) many.push(await benchTenant(s, accounting, i, credit));
    const ms = opts.ms ?? 3000;
    const rows: SettlementRow[] = [];
    for (const c of opts.concurrencies ?? SETTLE_CONCURRENCIES) {
      rows.push(await settleLoad(s, accounting, 'one hot tenant', hot, c, ms, 100_000));
      rows.push(await settleLoad(s, accounting, '100 tenants', many, c, ms, 100_000));
    }
    return rows;
  } finally {
    await rt.close();
  }
}

/** The hot tenant alone, round after round (the standalone MICRO_ONLY=hot run). */
async function benchHot(
  databaseUrl: string,
  dataDir: string,
  o: { rounds: number; ms: number; concurrencies: number[]; postmasterPid: number; alter: string; revert: string },
  each: (r: SettlementRow & { stats: string; variant: string; nodeUs: number; pgUs: number }) => void,
): Promise<Array<SettlementRow & { variant: string; nodeUs: number; pgUs: number }>> {
  const rt = await settlementRuntime(databaseUrl, dataDir);
  try {
    const s = rt.services;
    const accounting = s.calls.stages;
    const hot = [await benchTenant(s, accounting, 0, 1_000_000_000_000n)];
    await settleLoad(s, accounting, 'warm-up', hot, 16, 1000, 100_000);
    const ab = o.alter !== '' && o.revert !== '';
    const rows: Array<SettlementRow & { variant: string; nodeUs: number; pgUs: number }> = [];
    for (let i = 0; i < o.rounds; i++) {
      // MICRO_ALTER / MICRO_REVERT: rounds alternate between the schema as migrated and as altered
      // (A/B in the same minutes of a noisy machine); each switch is followed by a short warm-up.
      const variant = !ab ? 'migrated' : i % 2 === 0 ? 'migrated' : 'altered';
      if (ab && i > 0) {
        await sql.raw(variant === 'altered' ? o.alter : o.revert).execute(s.db);
        await settleLoad(s, accounting, 'warm-up', hot, 16, 300, 100_000);
      }
      for (const c of o.concurrencies) {
        const before = { ...s.settler.stats };
        if (process.env.MICRO_STATEMENTS === '1') {
          await sql`create extension if not exists pg_stat_statements`.execute(s.db);
          await sql`select pg_stat_statements_reset()`.execute(s.db);
        }
        const pg0 = treeCpuUs(o.postmasterPid);
        const node0 = process.cpuUsage();
        let nodeCpu = 0;
        let pgCpu = 0;
        const r = await settleLoad(s, accounting, 'one hot tenant', hot, c, o.ms, 100_000, () => {
          // CPU per settlement over the load alone (the chain verification after it left out).
          const du = process.cpuUsage(node0);
          nodeCpu = du.user + du.system;
          pgCpu = treeCpuUs(o.postmasterPid) - pg0;
        });
        const nodeUs = nodeCpu / r.settlements;
        const pgUs = pgCpu / r.settlements;
        const st = s.settler.stats as Record<string, number>;
        const d = Object.keys(st).map((k) => `${k} ${st[k] - ((before as Record<string, number>)[k] ?? 0)}`);
        d.push(`cpu/settlement node ${nodeUs.toFixed(0)} µs pg ${pgUs.toFixed(0)} µs`);
        if (process.env.MICRO_STATEMENTS === '1') {
          const q = await sql<{ query: string; calls: string; total: number }>`select query, calls::text, total_exec_time as total from pg_stat_statements order by total_exec_time desc limit 4`.execute(s.db);
          for (const x of q.rows) d.push(`\n   exec ${(x.total * 1000 / r.settlements).toFixed(1)} µs/settlement calls ${x.calls} ${x.query.slice(0, 50).replace(/\s+/g, ' ')}`);
        }
        const row = { ...r, variant, nodeUs, pgUs };
        rows.push(row);
        each({ ...row, stats: d.join(' ') });
      }
    }
    return rows;
  } finally {
    await rt.close();
  }
}

export async function runMicro(databaseUrl: string, dataDir: string, log: (line: string) => void = () => {}): Promise<MicroResults> {
  log('micro: Layer 1');
  const layer1 = benchLayer1();
  log('micro: shape translation');
  const translation = benchTranslation();
  log('micro: settlements (embedded PostgreSQL)');
  const settlements = await benchSettlements(databaseUrl, { dataDir });
  return { layer1, translation, settlements };
}

const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');

export function microMarkdown(r: MicroResults): string {
  const out: string[] = [];
  out.push('### Layer 1 decision (in-process, per call)', '');
  out.push('| prompt | calls | p50 µs | p99 µs | mean µs |', '| --- | ---: | ---: | ---: | ---: |');
  for (const x of r.layer1) out.push(`| ${x.label} | ${x.iterations} | ${f(x.p50Us, 2)} | ${f(x.p99Us, 2)} | ${f(x.meanUs, 2)} |`);
  out.push('', '### Shape translation per call (client request in → upstream request → upstream response → client response)', '');
  out.push('| client shape → provider wire | wire functions p50 µs | p99 µs | with JSON text in/out p50 µs | p99 µs |', '| --- | ---: | ---: | ---: | ---: |');
  for (const x of r.translation) {
    out.push(`| ${x.client} → ${x.provider} | ${f(x.wire.p50Us)} | ${f(x.wire.p99Us)} | ${f(x.withJson.p50Us)} | ${f(x.withJson.p99Us)} |`);
  }
  out.push('', '### Settlements (reserve + settle-and-seal, real accounting code, embedded PostgreSQL)', '');
  out.push('| tenants | concurrency | settlements | per second | p50 ms | p99 ms | chains verified |', '| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const x of r.settlements) {
    const v = x.verified ? `verified (${x.chains} chain${x.chains > 1 ? 's' : ''}, ${x.entries} entries)` : `BROKEN at ${x.firstBroken}`;
    out.push(`| ${x.label} | ${x.concurrency} | ${x.settlements} | ${f(x.perSecond, 0)} | ${f(x.p50Ms, 2)} | ${f(x.p99Ms, 2)} | ${v} |`);
  }
  out.push('');
  return out.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dir = mkdtempSync(join(tmpdir(), 'sb-micro-'));
  const { chmodSync } = await import('node:fs');
  chmodSync(dir, 0o755); // embedded PostgreSQL runs as its own OS user when we are root
  const pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    persistent: false,
    database: 'switchboard_micro',
    // MICRO_STATEMENTS=1: the hot rounds also print PostgreSQL's execution time per settlement.
    settings: process.env.MICRO_STATEMENTS === '1' ? { shared_preload_libraries: 'pg_stat_statements' } : {},
  });
  try {
    if (process.env.MICRO_ONLY === 'hot') {
      // The hot tenant alone, in repeated rounds (MICRO_HOT_ROUNDS × MICRO_HOT_MS per concurrency
      // of MICRO_HOT_CONCURRENCIES), each row printed as it is measured: for A/B runs of the
      // settlement code on a loaded machine, interleaved with another build's runs.
      const rounds = Number(process.env.MICRO_HOT_ROUNDS ?? 3);
      const ms = Number(process.env.MICRO_HOT_MS ?? 3000);
      const cs = (process.env.MICRO_HOT_CONCURRENCIES ?? '64').split(',').map(Number);
      const postmasterPid = Number(readFileSync(join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
      // MICRO_ALTER='<sql>' with MICRO_REVERT='<sql>': an A/B run of a schema change (rounds alternate).
      const alter = process.env.MICRO_ALTER ?? '';
      const revert = process.env.MICRO_REVERT ?? '';
      if (alter) console.log(`A/B, altered by: ${alter}`);
      const rows = await benchHot(pg.url, dir, { rounds, ms, concurrencies: cs, postmasterPid, alter, revert }, (x) => {
        const v = x.verified ? `verified ${x.entries}` : `BROKEN at ${x.firstBroken}`;
        console.log(`hot ${alter ? `${x.variant} ` : ''}c=${x.concurrency} ${x.perSecond.toFixed(0)}/s p50 ${x.p50Ms.toFixed(2)} ms p99 ${x.p99Ms.toFixed(2)} ms ${x.stats} ${v}`);
      });
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
      for (const variant of [...new Set(rows.map((r) => r.variant))]) {
        const vs = rows.filter((r) => r.variant === variant);
        const per = vs.map((r) => r.perSecond).sort((a, b) => a - b);
        console.log(
          `hot ${variant} median ${med(per).toFixed(0)}/s over ${vs.length} rounds (min ${per[0].toFixed(0)}, max ${per[per.length - 1].toFixed(0)}); ` +
            `CPU per settlement, medians: node ${med(vs.map((r) => r.nodeUs)).toFixed(0)} µs, PostgreSQL ${med(vs.map((r) => r.pgUs)).toFixed(0)} µs`,
        );
      }
    } else {
      const r = await runMicro(pg.url, dir, (l) => console.error(l));
      console.log(microMarkdown(r));
    }
  } finally {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
