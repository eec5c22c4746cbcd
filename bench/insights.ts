// `npm run bench:insights` (issue 15 item 8): insights stay fast when a customer is large. One
// tenant with 1,000,000 calls over 90 days (scripts/seed-large.ts) on a fresh embedded PostgreSQL,
// Switchboard started as `npm start` starts it (the production bundle, `serve`), and every
// insights endpoint plus the ledger's first page requested one after another through HTTP with a
// signed-in user's token: p50, p95 and max per endpoint against the 150 ms p95 target. A report,
// not a timed test: it prints and writes bench/results/insights-<timestamp>.md.
//
// Knobs: BENCH_INSIGHTS_CALLS (1000000), BENCH_INSIGHTS_DAYS (90), BENCH_INSIGHTS_REQUESTS (60
// per endpoint after 5 warm-up requests), DATABASE_URL (use that database instead of an embedded one),
// BENCH_INSIGHTS_REUSE_EMAIL (with DATABASE_URL: measure the large customer an earlier run of this
// bench seeded there, under that user, instead of seeding again; its rollup is brought up to date first).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '../src/store/db.ts';
import { freePort, startEmbeddedPostgres } from '../src/store/embedded.ts';
import { seedLargeHistory } from '../scripts/seed-large.ts';
import { rollUpLedger } from '../src/app/money/ledger-rollups.repo.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const num = (name: string, d: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : d;
};
const CALLS = num('BENCH_INSIGHTS_CALLS', 1_000_000);
const DAYS = num('BENCH_INSIGHTS_DAYS', 90);
const REQUESTS = num('BENCH_INSIGHTS_REQUESTS', 60);
const TARGET_P95_MS = 150;
const log = (line: string) => process.stderr.write(`${line}\n`);

export const INSIGHTS_ENDPOINTS = [
  '/api/tenant/insights/overview',
  '/api/tenant/insights/savings?window=7',
  '/api/tenant/insights/savings?window=30',
  '/api/tenant/insights/savings?window=90',
  '/api/tenant/insights/usage',
  '/api/tenant/insights/summary?period=today',
  '/api/tenant/insights/summary?period=yesterday',
  '/api/tenant/insights/summary?period=wtd',
  '/api/tenant/insights/summary?period=mtd',
  '/api/tenant/insights/summary/digest-preview',
  '/api/tenant/insights/audit',
  '/api/tenant/insights/activity',
  '/api/tenant/insights/activity?search=refund',
  '/api/tenant/ledger',
  '/api/tenant/ledger?type=AI_USAGE',
  '/api/tenant/ledger?minAmount=1000',
] as const;

/** The whole history as one custom period (the /summary screen's Custom tab). */
const customSummary = (days: number) => {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `/api/tenant/insights/summary?period=custom&from=${day(Date.now() - days * 86_400_000)}&to=${day(Date.now())}`;
};

function pct(xs: number[], p: number) {
  const v = [...xs].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)]!;
}

function startServe(env: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; url: string }> {
  execFileSync('npm', ['run', 'build:server', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const proc = spawn(process.execPath, ['--max-old-space-size=1024', 'dist/main.js', 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`serve did not start:\n${out}`)), 90_000);
    const on = (d: Buffer) => {
      out += d.toString();
      const m = /(?:running|listening) at (http:\/\/\S+)/i.exec(out);
      if (m) {
        clearTimeout(timer);
        res({ proc, url: m[1]!.replace(/\/$/, '') });
      }
    };
    proc.stdout!.on('data', on);
    proc.stderr!.on('data', on);
    proc.once('exit', (c) => rej(new Error(`serve exited with ${c}:\n${out}`)));
  });
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-insights-'));
  const cleanup: Array<() => Promise<unknown> | unknown> = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      log(`bench:insights: embedded PostgreSQL under ${dataDir}/pg`);
      const pg = await startEmbeddedPostgres({ dataDir: join(dataDir, 'pg'), persistent: false, database: 'switchboard' });
      cleanup.unshift(() => pg.stop());
      databaseUrl = pg.url;
    }
    const ledgerSecret = randomBytes(32).toString('hex');
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dataDir, 'data'), DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', JWT_SECRET: randomBytes(32).toString('hex'), LEDGER_SECRET: ledgerSecret };
    delete env.REDIS_URL;
    mkdirSync(env.DATA_DIR!, { recursive: true });
    const serve = await startServe(env);
    cleanup.unshift(() => new Promise((r) => { serve.proc.once('exit', r); serve.proc.kill('SIGTERM'); }));
    const api = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(serve.url + path, { method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
    };
    const reuse = process.env.BENCH_INSIGHTS_REUSE_EMAIL;
    const email = reuse ?? `large-${Date.now()}@example.test`;
    const password = 'a large customer with history';
    const { db } = createDb(databaseUrl, 4);
    let seeded: { entries: number; ms: number };
    let tenantId: string;
    if (reuse) {
      const m = await db.selectFrom('memberships as m').innerJoin('users as u', 'u.id', 'm.user_id').select('m.tenant_id').where('u.email', '=', reuse).executeTakeFirstOrThrow();
      tenantId = m.tenant_id;
      const t0 = Date.now();
      await rollUpLedger(db, tenantId);
      const n = await db.selectFrom('ledger_entries').select((e) => e.fn.countAll<string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
      seeded = { entries: Number(n.n), ms: Date.now() - t0 };
      log(`bench:insights: reusing ${reuse}'s tenant; rollup brought up to date in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } else {
      const su = await api('POST', '/api/auth/signup', { email, password, name: 'Large customer', tenantName: 'Large customer' });
      if (su.status !== 201) throw new Error(`signup: ${su.status} ${JSON.stringify(su.body)}`);
      const userId = (su.body.data.user as { id: string }).id;
      tenantId = (await db.selectFrom('memberships').select('tenant_id').where('user_id', '=', userId).executeTakeFirstOrThrow()).tenant_id;
      log(`bench:insights: seeding ${CALLS.toLocaleString('en-US')} calls over ${DAYS} days`);
      seeded = await seedLargeHistory(db, Buffer.from(ledgerSecret, 'utf8'), { tenantId, calls: CALLS, days: DAYS, log });
    }
    const rows = await db.selectFrom('call_logs').select((e) => e.fn.countAll<string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    await db.destroy();
    log(`bench:insights: seeded ${seeded.entries.toLocaleString('en-US')} ledger entries in ${(seeded.ms / 1000).toFixed(1)} s`);

    // Signed in after seeding, as the customer would be. The per-user /api limit (600 a minute,
    // D9) is respected by pacing between requests, never inside a timed one.
    const li = await api('POST', '/api/auth/login', { email, password });
    if (li.status !== 200) throw new Error(`login: ${li.status} ${JSON.stringify(li.body)}`);
    const token = (li.body.data.tokens as { accessToken: string }).accessToken;
    const sent: number[] = [];
    const pace = async () => {
      while (sent.length > 0 && sent[0]! < Date.now() - 60_000) sent.shift();
      if (sent.length >= 560) await new Promise((r) => setTimeout(r, sent[0]! + 60_000 - Date.now() + 10));
      sent.push(Date.now());
    };
    const results: Array<{ path: string; p50: number; p95: number; max: number; status: number }> = [];
    for (const path of [...INSIGHTS_ENDPOINTS, customSummary(DAYS)]) {
      let status = 0;
      const times: number[] = [];
      for (let i = 0; i < REQUESTS + 5; i++) {
        await pace();
        const t0 = performance.now();
        const res = await fetch(serve.url + path, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        const ms = performance.now() - t0;
        status = res.status;
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        if (i >= 5) times.push(ms);
      }
      const r = { path, p50: pct(times, 50), p95: pct(times, 95), max: Math.max(...times), status };
      results.push(r);
      log(`  ${path}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
    }
    const worst = Math.max(...results.map((r) => r.p95));
    const md = [
      `# Insights with a large customer (${new Date().toISOString()})`,
      '',
      `One tenant with ${Number(rows.n).toLocaleString('en-US')} call-log rows and ${seeded.entries.toLocaleString('en-US')} sealed ledger entries over ${DAYS} days`,
      `(scripts/seed-large.ts), Switchboard \`serve\` from the production bundle on ${process.env.DATABASE_URL ? 'the PostgreSQL of DATABASE_URL' : 'embedded PostgreSQL'}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()[0]!.toFixed(1)} at the end.`,
      `${REQUESTS} sequential requests per endpoint after 5 warm-up requests, each with a signed-in user's bearer token. Target: p95 under ${TARGET_P95_MS} ms.`,
      '',
      '| Endpoint | p50 ms | p95 ms | max ms | Verdict |',
      '| --- | ---: | ---: | ---: | --- |',
      ...results.map((r) => `| \`${r.path}\` | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} | ${r.p95 < TARGET_P95_MS ? 'met' : 'MISSED'} |`),
      '',
      `Worst p95: ${worst.toFixed(1)} ms (${worst < TARGET_P95_MS ? 'every endpoint meets the target' : 'target missed'}).`,
      '',
    ].join('\n');
    process.stdout.write(md);
    const out = join(ROOT, 'bench', 'results', `insights-${new Date().toISOString().replace(/[:.]/g, '-')}.md`);
    writeFileSync(out, md);
    log(`bench:insights: report written to ${out}`);
  } finally {
    for (const c of cleanup) await c();
  }
}

main().catch((e) => {
  log(`bench:insights failed: ${(e as Error).message}`);
  process.exit(1);
});
