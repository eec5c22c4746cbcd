// The integration-test harness: every test file gets its own PostgreSQL database on the server
// named by DATABASE_URL, and boots the real server on a free port through startRuntime, the same
// function `npm start` uses. No mocks: the only stand-in is the simulated upstream.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { startRuntime, type Runtime } from '../src/runtime/runtime.ts';
import { ManualClock } from '../src/infra/clock.ts';
import { startSim, type SimHandle } from '../src/sim/index.ts';
import { appendLedgerEntry } from '../src/app/money/ledger.ts';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('DATABASE_URL is not set: run tests with `npm test`');
  const name = `sbt_${process.pid}_${randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

export interface TestServer extends Runtime {
  clock: ManualClock;
  /** The simulated upstream every provider points at (fault injection, stats). */
  sim: SimHandle;
  dataDir: string;
  database: TestDatabase;
  /** fetch against the server with JSON in and out. */
  api<T = any>(method: string, path: string, opts?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<{ status: number; body: T; headers: Headers }>;
}

export async function startTestServer(
  opts: { env?: Record<string, string>; database?: TestDatabase; worker?: boolean; sim?: SimHandle } = {},
): Promise<TestServer> {
  const database = opts.database ?? (await createTestDatabase());
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-test-data-'));
  const clock = new ManualClock();
  const sim = opts.sim ?? (await startSim({ port: 0, host: '127.0.0.1' }));
  const cfg = loadConfig({
    DATABASE_URL: database.url,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    LEDGER_SECRET: randomBytes(32).toString('hex'),
    // Each test opts in to Redis explicitly (limiter/bus contract suites), so files running in
    // parallel never share buckets or streams by accident.
    REDIS_URL: '',
    // Servers of one test file that share Redis must pass the same prefix explicitly.
    REDIS_KEY_PREFIX: `sbt:${randomBytes(6).toString('hex')}:`,
    ...opts.env,
  });
  const rt = await startRuntime(cfg, { clock, worker: opts.worker ?? true, simUrl: sim.url });
  return {
    ...rt,
    clock,
    sim,
    dataDir,
    database,
    async api(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.body !== undefined) headers['content-type'] ??= 'application/json';
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      const res = await fetch(rt.url + path, {
        method,
        headers,
        body: o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: res.status, body: body as any, headers: res.headers };
    },
    async close() {
      await rt.close();
      if (!opts.sim) await sim.close();
      if (!opts.database) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let n = 0;
/** Sign up a fresh tenant; returns its owner's tokens and ids. */
export async function signupTenant(srv: TestServer, label = 't') {
  n += 1;
  const email = `${label}-${process.pid}-${n}-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'correct horse battery staple';
  const r = await srv.api('POST', '/api/auth/signup', { body: { email, password, name: `User ${label}`, tenantName: `Tenant ${label}` } });
  if (r.status !== 201) throw new Error(`signup failed: ${r.status} ${JSON.stringify(r.body)}`);
  const me = await srv.api('GET', '/api/projects', { token: r.body.data.tokens.accessToken });
  const m = await srv.services.db.selectFrom('memberships').select('tenant_id').where('user_id', '=', r.body.data.user.id).executeTakeFirstOrThrow();
  return {
    tenantId: m.tenant_id,
    email,
    password,
    userId: r.body.data.user.id as string,
    accessToken: r.body.data.tokens.accessToken as string,
    refreshToken: r.body.data.tokens.refreshToken as string,
    defaultProjectId: me.body.data.items[0].id as string,
  };
}

/** Credit a tenant's wallet the way an operator adjustment does: a sealed ADJUSTMENT entry. */
export async function credit(srv: TestServer, tenantId: string, micros: bigint): Promise<void> {
  await srv.services.db.transaction().execute((tx) =>
    appendLedgerEntry(tx, srv.services.secrets.ledger, { tenantId, projectId: null, eventType: 'ADJUSTMENT', amountMicros: micros, memo: 'test credit', at: srv.clock.now() }),
  );
}

/** A tenant with money and a service key, ready for proxy calls. */
export async function tenantWithKey(srv: TestServer, opts: { micros?: bigint; environment?: 'dev' | 'staging' | 'production' } = {}) {
  const t = await signupTenant(srv, 'proxy');
  await credit(srv, t.tenantId, opts.micros ?? 10_000_000n);
  const k = await srv.api('POST', '/api/keys', { token: t.accessToken, body: { name: 'test', environment: opts.environment ?? 'dev' } });
  if (k.status !== 201) throw new Error(`key creation failed: ${k.status}`);
  return { ...t, key: k.body.data.key as string, keyId: k.body.data.record.id as string };
}
