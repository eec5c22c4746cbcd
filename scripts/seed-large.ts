// A large customer for the insights benchmark (issue 15 item 8): one tenant with 1,000,000 calls
// over 90 days (the defaults), so every insights endpoint and the ledger's first page can be
// measured where a big customer would feel them. `npm run bench:insights` uses it on its own
// database; `npm run seed:large` runs it against DATABASE_URL (a deployment's own database, with
// that deployment's LEDGER_SECRET or DATA_DIR, so the chain it writes verifies there).
//
// The rows are the rows settlement writes (call log + sealed AI_USAGE ledger entry per attempt,
// escalations as second attempts with parent_call_id), priced with the real price book and the
// benchmark's reference model (D7), and sealed into one chain that `GET /api/tenant/ledger/verify`
// accepts. They are written with one INSERT … SELECT FROM unnest(…) per batch, not through the
// request path: a million settlements through HTTP would measure the proxy, not the insights.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../src/store/db.ts';
import { sealLedgerEntry, GENESIS_HASH } from '../src/core/ledger/seal.ts';
import { CUSTOMER_LABELS } from '../src/core/ledger/payload.ts';
import { allModels, savings, type PricedModel } from '../src/core/pricing/index.ts';
import { COMPLEXITIES, TASK_FAMILIES } from '../src/core/routing/vocabulary.ts';
import { ROUTING_TABLE_VERSION } from '../src/core/routing/routing-table.ts';
import type { ProviderKey } from '../src/core/providers.ts';
import { qaDocument } from '../src/core/quality/index.ts';
import { rollUpLedger } from '../src/app/money/index.ts';
import { mulberry32 as rng } from './rng.ts';

const DAY = 86_400_000;
const BATCH = 5_000;

export interface SeedLargeOptions {
  tenantId: string;
  calls?: number;
  days?: number;
  projects?: number;
  benchmark?: ProviderKey;
  now?: Date;
  log?: (line: string) => void;
}


const EXCERPTS = [
  'Summarise this support ticket for the on-call engineer',
  'Translate the release notes into German',
  'Write a SQL query for monthly active users by plan',
  'Classify the sentiment of these product reviews',
  'Draft a reply to the customer about the refund',
  'Explain why this TypeScript generic does not infer',
  'Extract the invoice number, date and total',
  'Refactor the retry loop to use exponential backoff',
  'Research the trade-offs between Kafka and NATS for our events',
  'Analyse the churn numbers in this CSV and list the three drivers',
];

export async function seedLargeHistory(db: Db, secret: Buffer, o: SeedLargeOptions): Promise<{ calls: number; entries: number; ms: number }> {
  const t0 = Date.now();
  const calls = o.calls ?? 1_000_000;
  const days = o.days ?? 90;
  const now = (o.now ?? new Date()).getTime();
  const benchmark = o.benchmark ?? 'openai';
  const log = o.log ?? (() => undefined);
  const rand = rng(20261124);

  await db.updateTable('tenants').set({ baseline_provider_key: benchmark }).where('id', '=', o.tenantId).execute();
  const existing = await db.selectFrom('projects').select(['id']).where('tenant_id', '=', o.tenantId).where('deleted_at', 'is', null).execute();
  const projectIds = existing.map((p) => p.id);
  for (let i = projectIds.length; i < (o.projects ?? 6); i++) {
    const p = await db.insertInto('projects').values({ tenant_id: o.tenantId, name: `Team ${String.fromCharCode(65 + i)}` }).returning('id').executeTakeFirstOrThrow();
    projectIds.push(p.id);
  }

  const byClass = new Map<string, PricedModel[]>();
  for (const m of allModels()) byClass.set(m.modelClass, [...(byClass.get(m.modelClass) ?? []), m]);
  const classes = [...byClass.keys()];

  // The chain continues from the wallet's head; the credit that pays for the history comes first.
  const head = await db.selectFrom('wallets').select(['balance_micros', 'ledger_seq', 'last_seal_hash']).where('tenant_id', '=', o.tenantId).executeTakeFirstOrThrow();
  let seq = head.ledger_seq;
  let prev = head.last_seal_hash || GENESIS_HASH;
  let balance = head.balance_micros;
  const start = now - days * DAY;
  const span = now - start - 60_000;

  // First the credit, dated before the first call, so the balance never goes below zero.
  const credit = 10_000_000_000_000n;
  const ledgerCols = {
    id: [] as string[], project_id: [] as (string | null)[], seq: [] as string[], event_type: [] as string[], customer_label: [] as string[],
    amount: [] as string[], balance_after: [] as string[], model_id: [] as (string | null)[], provider_key: [] as (string | null)[],
    benchmark_provider: [] as (string | null)[], methodology: [] as (string | null)[], actual: [] as (string | null)[], baseline: [] as (string | null)[],
    pricing: [] as (string | null)[], call_id: [] as (string | null)[], memo: [] as (string | null)[], seal_hash: [] as string[], prev_hash: [] as string[], created_at: [] as string[],
  };
  const callCols = {
    id: [] as string[], project_id: [] as string[], parent: [] as (string | null)[], attempt: [] as number[], escalated: [] as boolean[], channel: [] as string[],
    shape: [] as string[], stream: [] as boolean[], family: [] as string[], complexity: [] as string[], model_class: [] as string[], provider_key: [] as string[],
    model_id: [] as string[], region: [] as string[], benchmark_provider: [] as string[], methodology: [] as string[], actual: [] as string[], baseline: [] as string[],
    pricing: [] as string[], debited: [] as string[], input_tokens: [] as number[], output_tokens: [] as number[], latency: [] as number[], excerpt: [] as string[],
    ledger_entry_id: [] as string[], created_at: [] as string[], qa: [] as string[],
  };
  const clear = (cols: Record<string, unknown[]>) => {
    for (const k of Object.keys(cols)) cols[k]!.length = 0;
  };

  const appendEntry = (e: {
    projectId: string | null; eventType: 'AI_USAGE' | 'ADJUSTMENT'; amount: bigint; modelId: string | null; providerKey: string | null; benchmark: string | null;
    methodology: string | null; actual: bigint | null; baseline: bigint | null; pricing: string | null; callId: string | null; memo: string | null; at: string;
  }) => {
    seq += 1n;
    balance += e.amount;
    const id = randomUUID();
    const sealHash = sealLedgerEntry(secret, prev, {
      id, tenantId: o.tenantId, projectId: e.projectId, eventType: e.eventType, amountMicros: e.amount, balanceAfterMicros: balance, modelId: e.modelId,
      providerKey: e.providerKey, benchmarkProvider: e.benchmark, benchmarkMethodologyVersion: e.methodology, actualCostUsdMicros: e.actual,
      baselineCostUsdMicros: e.baseline, benchmarkPricingVersion: e.pricing, createdAt: e.at,
    });
    const c = ledgerCols;
    c.id.push(id); c.project_id.push(e.projectId); c.seq.push(seq.toString()); c.event_type.push(e.eventType); c.customer_label.push(CUSTOMER_LABELS[e.eventType]);
    c.amount.push(e.amount.toString()); c.balance_after.push(balance.toString()); c.model_id.push(e.modelId); c.provider_key.push(e.providerKey);
    c.benchmark_provider.push(e.benchmark); c.methodology.push(e.methodology); c.actual.push(e.actual?.toString() ?? null); c.baseline.push(e.baseline?.toString() ?? null);
    c.pricing.push(e.pricing); c.call_id.push(e.callId); c.memo.push(e.memo); c.seal_hash.push(sealHash); c.prev_hash.push(prev); c.created_at.push(e.at);
    prev = sealHash;
    return id;
  };

  const flush = async () => {
    const l = ledgerCols;
    const c = callCols;
    const n = l.id.length;
    if (n === 0) return;
    await db.transaction().execute(async (tx) => {
      await sql`
        insert into ledger_entries (id, tenant_id, project_id, seq, event_type, customer_label, amount_micros, balance_after_micros, model_id, provider_key,
          benchmark_provider, benchmark_methodology_version, actual_cost_usd_micros, baseline_cost_usd_micros, benchmark_pricing_version, call_id, memo,
          seal_hash, prev_hash, created_at)
        select u.id, ${o.tenantId}::uuid, u.project_id, u.seq, u.event_type, u.customer_label, u.amount, u.balance_after, u.model_id, u.provider_key,
               u.benchmark_provider, u.methodology, u.actual, u.baseline, u.pricing, u.call_id, u.memo, u.seal_hash, u.prev_hash, u.created_at
          from unnest(${l.id}::uuid[], ${l.project_id}::uuid[], ${l.seq}::bigint[], ${l.event_type}::text[], ${l.customer_label}::text[], ${l.amount}::bigint[],
                      ${l.balance_after}::bigint[], ${l.model_id}::text[], ${l.provider_key}::text[], ${l.benchmark_provider}::text[], ${l.methodology}::text[],
                      ${l.actual}::bigint[], ${l.baseline}::bigint[], ${l.pricing}::text[], ${l.call_id}::uuid[], ${l.memo}::text[], ${l.seal_hash}::text[],
                      ${l.prev_hash}::text[], ${l.created_at}::timestamptz[])
            as u(id, project_id, seq, event_type, customer_label, amount, balance_after, model_id, provider_key, benchmark_provider, methodology, actual,
                 baseline, pricing, call_id, memo, seal_hash, prev_hash, created_at)`.execute(tx);
      if (c.id.length > 0) {
        await sql`
          insert into call_logs (id, tenant_id, project_id, parent_call_id, attempt, escalated, status, channel, client_shape, stream, task_family, complexity,
            model_class, routing_table_version, routing_rules, provider_key, model_id, region, benchmark_provider, benchmark_methodology_version,
            actual_cost_usd_micros, baseline_cost_usd_micros, benchmark_pricing_version, debited_micros, input_tokens, output_tokens, latency_ms,
            prompt_excerpt, ledger_entry_id, created_at, qa, qa_scored_at)
          select u.id, ${o.tenantId}::uuid, u.project_id, u.parent, u.attempt, u.escalated, 'succeeded', u.channel, u.shape, u.stream, u.family, u.complexity,
                 u.model_class, ${ROUTING_TABLE_VERSION}, '[]'::jsonb, u.provider_key, u.model_id, u.region, u.benchmark_provider, u.methodology,
                 u.actual, u.baseline, u.pricing, u.debited, u.input_tokens, u.output_tokens, u.latency, u.excerpt, u.ledger_entry_id, u.created_at, u.qa, u.created_at
            from unnest(${c.id}::uuid[], ${c.project_id}::uuid[], ${c.parent}::uuid[], ${c.attempt}::int[], ${c.escalated}::boolean[], ${c.channel}::text[],
                        ${c.shape}::text[], ${c.stream}::boolean[], ${c.family}::text[], ${c.complexity}::text[], ${c.model_class}::text[], ${c.provider_key}::text[],
                        ${c.model_id}::text[], ${c.region}::text[], ${c.benchmark_provider}::text[], ${c.methodology}::text[], ${c.actual}::bigint[],
                        ${c.baseline}::bigint[], ${c.pricing}::text[], ${c.debited}::bigint[], ${c.input_tokens}::int[], ${c.output_tokens}::int[],
                        ${c.latency}::int[], ${c.excerpt}::text[], ${c.ledger_entry_id}::uuid[], ${c.created_at}::timestamptz[], ${c.qa}::jsonb[])
              as u(id, project_id, parent, attempt, escalated, channel, shape, stream, family, complexity, model_class, provider_key, model_id, region,
                   benchmark_provider, methodology, actual, baseline, pricing, debited, input_tokens, output_tokens, latency, excerpt, ledger_entry_id, created_at, qa)`.execute(tx);
      }
      await tx
        .updateTable('wallets')
        .set({ balance_micros: balance, ledger_seq: seq, last_seal_hash: prev })
        .where('tenant_id', '=', o.tenantId)
        .execute();
    });
    clear(ledgerCols);
    clear(callCols);
  };

  appendEntry({
    projectId: null, eventType: 'ADJUSTMENT', amount: credit, modelId: null, providerKey: null, benchmark: null, methodology: null, actual: null, baseline: null,
    pricing: null, callId: null, memo: 'large-customer seed credit', at: new Date(start - 60_000).toISOString(),
  });

  let entries = 1;
  const shapes = ['openai', 'anthropic', 'gemini'] as const;
  const channels = ['proxy:chat', 'proxy:messages', 'proxy:generate', 'mcp', 'copy-paste'];
  for (let i = 0; i < calls; i++) {
    const at = new Date(start + Math.floor((i / calls) * span)).toISOString();
    const projectId = projectIds[Math.floor(rand() * projectIds.length)]!;
    const family = TASK_FAMILIES[Math.floor(rand() * TASK_FAMILIES.length)]!;
    const complexity = COMPLEXITIES[Math.floor(rand() * COMPLEXITIES.length)]!;
    const escalate = rand() < 0.03;
    const attempts = escalate ? 2 : 1;
    let parent: string | null = null;
    for (let a = 1; a <= attempts; a++) {
      const cls = classes[Math.min(classes.length - 1, Math.floor(rand() * classes.length) + (a - 1))]!;
      const models = byClass.get(cls)!;
      const model = models[Math.floor(rand() * models.length)]!;
      const usage = { inputTokens: 200 + Math.floor(rand() * 3_000), outputTokens: 50 + Math.floor(rand() * 800) };
      const sv = savings({ actualModel: model, benchmarkProvider: benchmark, modelClass: model.modelClass, usage });
      const callId = randomUUID();
      const shape = shapes[i % 3]!;
      const entryId = appendEntry({
        projectId, eventType: 'AI_USAGE', amount: -sv.actualCostMicros, modelId: model.id, providerKey: model.provider, benchmark,
        methodology: sv.methodologyVersion, actual: sv.actualCostMicros, baseline: sv.baselineCostMicros, pricing: sv.pricingVersion, callId, memo: null, at,
      });
      entries++;
      const c = callCols;
      c.id.push(callId); c.project_id.push(projectId); c.parent.push(parent); c.attempt.push(a); c.escalated.push(a > 1); c.channel.push(channels[i % channels.length]!);
      c.shape.push(shape); c.stream.push(rand() < 0.4); c.family.push(family); c.complexity.push(complexity); c.model_class.push(model.modelClass);
      c.provider_key.push(model.provider); c.model_id.push(model.id); c.region.push(model.regions[0] ?? 'us'); c.benchmark_provider.push(benchmark);
      c.methodology.push(sv.methodologyVersion); c.actual.push(sv.actualCostMicros.toString()); c.baseline.push((sv.baselineCostMicros ?? 0n).toString());
      c.pricing.push(sv.pricingVersion); c.debited.push(sv.actualCostMicros.toString()); c.input_tokens.push(usage.inputTokens); c.output_tokens.push(usage.outputTokens);
      c.latency.push(300 + Math.floor(rand() * 2_000)); c.excerpt.push(`${EXCERPTS[Math.floor(rand() * EXCERPTS.length)]} (#${i})`);
      // Scored inline as settlement scores it (D5a); the first attempt of an escalated call fell below the floor.
      const below = escalate && a === 1;
      const q = below ? { accuracy: 0.4, structure: 0.6, hallucinationRisk: 0.3, instructionFidelity: 0.4 } : { accuracy: 0.9, structure: 0.95, hallucinationRisk: 0.05, instructionFidelity: 0.9 };
      c.qa.push(JSON.stringify(qaDocument(q, below ? ['the answer missed the requested format'] : [], 0.6, 'inline')));
      c.ledger_entry_id.push(entryId); c.created_at.push(at);
      parent = callId;
    }
    if (ledgerCols.id.length >= BATCH) {
      await flush();
      if ((i + 1) % 100_000 < BATCH / 2 || i + 1 === calls) log(`seeded ${(i + 1).toLocaleString('en-US')} calls`);
    }
  }
  await flush();
  // The history is dated in the past: the insights' daily rollups take it in now, as the worker's
  // job would within a minute.
  await rollUpLedger(db, o.tenantId);
  await sql`analyze ledger_entries`.execute(db);
  await sql`analyze call_logs`.execute(db);
  return { calls, entries, ms: Date.now() - t0 };
}

// ───────────────────────────── command line ─────────────────────────────
// npm run seed:large -- --email owner@example.com [--calls 1000000] [--days 90]
// Seeds the first tenant of that user in the database of DATABASE_URL, sealing with the secret
// the server there uses (LEDGER_SECRET, or DATA_DIR/secrets.json as the server keeps it).
async function cli() {
  const { loadConfig } = await import('../src/config.ts');
  const { loadSecrets } = await import('../src/app/shared/index.ts');
  const { createDb } = await import('../src/store/db.ts');
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const email = arg('email');
  if (!email || !process.env.DATABASE_URL) {
    process.stderr.write('seed:large needs DATABASE_URL (the deployment\'s database) and --email <an existing user\'s e-mail>, e.g.\n' +
      '  DATABASE_URL=postgres://… npm run seed:large -- --email owner@example.com --calls 1000000 --days 90\n');
    process.exit(2);
  }
  const cfg = loadConfig(process.env);
  const secrets = await loadSecrets(cfg);
  const { db } = createDb(process.env.DATABASE_URL, 4);
  try {
    const m = await db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('m.tenant_id')
      .where(sql`lower(u.email)`, '=', email.toLowerCase())
      .orderBy('m.created_at')
      .executeTakeFirst();
    if (!m) {
      process.stderr.write(`No user with the e-mail ${email}: sign up first (the web app's /signup), then run this again.\n`);
      process.exit(2);
    }
    const r = await seedLargeHistory(db, secrets.ledger, {
      tenantId: m.tenant_id,
      calls: Number(arg('calls') ?? 1_000_000),
      days: Number(arg('days') ?? 90),
      log: (l) => process.stderr.write(`${l}\n`),
    });
    process.stdout.write(`Seeded ${r.calls.toLocaleString('en-US')} calls (${r.entries.toLocaleString('en-US')} ledger entries) in ${(r.ms / 1000).toFixed(1)} s.\n`);
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) void cli();
