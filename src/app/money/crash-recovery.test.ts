// The crash test (D8): a process settling calls is SIGKILLed mid-transaction, then a freshly
// started `main.ts worker` process recovers. Afterwards: no hold left, the chain verifies, the
// balance equals the sum of the ledger, and no call is charged twice. This server runs no worker
// of its own, so the recovery is the child worker's alone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { COST, callId, credit, ledgerSum, newTenant, settlement, waitFor, walletRow } from '../../../test/money.ts';
import { verifyLedger } from './ledger-view.ts';
import { reserve, settleCall } from './wallet.ts';
import { createKey } from '../identity/keys.ts';
import { freePort } from '../../store/embedded.ts';
import { PROVIDER_KEYS } from '../../core/providers.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
after(async () => {
  await srv.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const s = () => srv.services;

const exited = (c: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) resolve();
    else c.once('exit', () => resolve());
  });

describe('crash and recovery', () => {
  const children: ChildProcess[] = [];
  after(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const cfg = s().config;
    return {
      ...process.env,
      DATABASE_URL: srv.database.url,
      LEDGER_SECRET: cfg.LEDGER_SECRET!,
      JWT_SECRET: cfg.JWT_SECRET!,
      DATA_DIR: tempDir('sb-crash-'),
      LOG_LEVEL: 'silent',
      REDIS_URL: '',
      PGAPPNAME: 'sb-crash-child',
      ...extra,
    };
  }

  test('SIGKILL during settlements, then a fresh worker: no hold left, chain valid, balance = Σ ledger, no call charged twice', async () => {
    const t = await newTenant(s());
    const START = 1_000_000n;
    await credit(s(), t.tenantId, START);
    const N = 60;
    const reservations = [];
    for (let i = 0; i < N; i++) reservations.push(await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n }));
    const file = join(tempDir('sb-crash-in-'), 'reservations.json');
    writeFileSync(file, JSON.stringify(reservations, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));

    // 1. A process settling in four lanes, killed with no chance to clean up.
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/crash/settle-loop.ts', file], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const settled = new Set<string>();
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      let buf = '';
      child.stdout!.on('data', (d) => {
        buf += d;
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.startsWith('settled ')) settled.add(line.slice(8));
          if (settled.size >= 12 && child.exitCode === null) {
            child.kill('SIGKILL');
            resolve();
          }
        }
      });
      child.on('exit', (code, sig) => (sig === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code} before the kill: ${stderr}`))));
    });
    await exited(child);
    assert.ok(settled.size >= 12 && settled.size < N, `settled ${settled.size} before the kill`);

    // The killed process's sessions end once PostgreSQL notices; their open transactions roll back.
    await waitFor('the killed sessions to end', async () => {
      const r = await sql<{ n: bigint }>`select count(*)::bigint as n from pg_stat_activity where application_name = 'sb-crash-child'`.execute(s().db);
      return r.rows[0].n === 0n;
    });
    const midway = await walletRow(s(), t.tenantId);
    assert.ok(midway.reserved_micros > 0n, 'the crash left holds behind');

    // 2. A worker started afresh (a real `main.ts worker` process) sweeps on boot.
    await new Promise((r) => setTimeout(r, 1_100)); // every hold is now older than the 1 s timeout
    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
      env: childEnv({ RESERVATION_TIMEOUT_MS: '1000', PGAPPNAME: 'sb-recovery-worker' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(worker);
    let workerErr = '';
    worker.stderr!.on('data', (d) => (workerErr += d));
    try {
      await waitFor(
        'the restarted worker to sweep',
        async () => (await s().db.selectFrom('reservations').select('id').where('tenant_id', '=', t.tenantId).where('status', '=', 'reserved').execute()).length === 0,
        30_000,
      );
    } catch (e) {
      throw new Error(`${(e as Error).message}; worker stderr: ${workerErr}`);
    }
    worker.kill('SIGTERM');
    await exited(worker);

    // 3. The invariants.
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.reserved_micros, 0n, 'no hold left');
    assert.deepEqual(await verifyLedger(s().db, s().secrets.ledger, t.tenantId), { verified: true, firstBroken: null, checked: Number(w.ledger_seq), reason: null });
    assert.equal(w.balance_micros, await ledgerSum(s(), t.tenantId), 'balance = Σ ledger');
    const rows = await s().db.selectFrom('reservations').select(['id', 'status', 'swept_at', 'sweep_reason']).where('tenant_id', '=', t.tenantId).execute();
    const settledRows = rows.filter((r) => r.status === 'settled');
    const sweptRows = rows.filter((r) => r.status === 'swept');
    assert.equal(settledRows.length + sweptRows.length, N);
    assert.ok(sweptRows.length > 0);
    assert.ok(sweptRows.every((r) => r.swept_at && r.sweep_reason === 'no settlement within 1s'));
    const usage = await sql<{ n: bigint; calls: bigint }>`
      select count(*)::bigint as n, count(distinct call_id)::bigint as calls
        from ledger_entries where tenant_id = ${t.tenantId} and event_type = 'AI_USAGE'`.execute(s().db);
    assert.equal(usage.rows[0].n, BigInt(settledRows.length), 'one AI_USAGE entry per settled call');
    assert.equal(usage.rows[0].calls, usage.rows[0].n, 'no call charged twice');
    const charged = new Set((await s().db.selectFrom('ledger_entries').select('call_id').where('tenant_id', '=', t.tenantId).where('event_type', '=', 'AI_USAGE').execute()).map((r) => r.call_id));
    for (const id of settled) assert.ok(charged.has(id), 'every settlement the child reported committed is in the ledger');
    for (const r of sweptRows) assert.equal(charged.has(r.id), false, 'a swept call was never charged');
    const logs = await s().db.selectFrom('call_logs').select('id').where('tenant_id', '=', t.tenantId).execute();
    assert.equal(logs.length, settledRows.length);
    assert.equal(w.balance_micros, START - BigInt(settledRows.length) * COST);

    // A call whose settlement comes back after the sweep is charged exactly once.
    const late = reservations.find((r) => sweptRows.some((x) => x.id === r.id))!;
    const first = await settleCall(s(), settlement(t, late));
    const second = await settleCall(s(), settlement(t, late));
    assert.deepEqual([first.duplicate, second.duplicate], [false, true]);
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 0n);
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
  });

  test('SIGKILL of a serving proxy with calls in flight, then a fresh worker: the same invariants hold', async () => {
    const t = await newTenant(s());
    const START = 10_000_000n;
    await credit(s(), t.tenantId, START);
    const { key } = await createKey(s().db, { tenantId: t.tenantId, projectId: t.projectId, name: 'crash', environment: 'dev' });
    const port = await freePort();
    const upstreams = Object.fromEntries(PROVIDER_KEYS.flatMap((p) => [[`${p.toUpperCase()}_BASE_URL`, `${srv.sim.url}/${p}`], [`${p.toUpperCase()}_API_KEY`, 'simulated']]));
    const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
      env: childEnv({ PORT: String(port), RATE_LIMIT_CHAT_PER_MIN: '100000', PGAPPNAME: 'sb-crash-serve', ...upstreams }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(server);
    const base = `http://127.0.0.1:${port}`;
    await waitFor('the serving child to listen', async () => (await fetch(`${base}/health`).catch(() => null))?.ok, 30_000);
    const call = (content: string, stream = false) =>
      fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'x', stream, messages: [{ role: 'user', content }] }),
      }).then(async (r) => ({ status: r.status, text: await r.text() }));

    // Ten calls complete, then slow ones are in flight (reserved, upstream still answering) at the kill.
    const done = await Promise.all(Array.from({ length: 10 }, (_, i) => call(`quick ${i}`)));
    assert.ok(done.every((r) => r.status === 200));
    srv.sim.faults.add({ delayMs: 5_000, promptIncludes: 'SLOW' }, { chunkDelayMs: 400, stream: true, promptIncludes: 'DRIP' });
    const before = srv.sim.stats.total;
    const inflight = [...Array.from({ length: 8 }, (_, i) => call(`SLOW ${i}`)), ...Array.from({ length: 4 }, (_, i) => call(`DRIP ${i}: tell a long story`, true))].map((p) => p.catch(() => null));
    await waitFor('the in-flight calls to reach the upstream', async () => srv.sim.stats.total >= before + 12);
    server.kill('SIGKILL');
    await exited(server);
    await Promise.all(inflight);
    srv.sim.faults.clear();
    await waitFor('the killed sessions to end', async () => {
      const r = await sql<{ n: bigint }>`select count(*)::bigint as n from pg_stat_activity where application_name = 'sb-crash-serve'`.execute(s().db);
      return r.rows[0].n === 0n;
    });
    assert.ok((await walletRow(s(), t.tenantId)).reserved_micros > 0n, 'the crash left holds behind');

    await new Promise((r) => setTimeout(r, 1_100));
    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
      env: childEnv({ RESERVATION_TIMEOUT_MS: '1000', PGAPPNAME: 'sb-recovery-worker-2' }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(worker);
    await waitFor('the restarted worker to sweep', async () => (await s().db.selectFrom('reservations').select('id').where('tenant_id', '=', t.tenantId).where('status', '=', 'reserved').execute()).length === 0, 30_000);
    worker.kill('SIGTERM');
    await exited(worker);

    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.reserved_micros, 0n, 'no hold left');
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true, 'the chain verifies');
    assert.equal(w.balance_micros, await ledgerSum(s(), t.tenantId), 'balance = Σ ledger');
    const usage = await sql<{ n: bigint; calls: bigint }>`
      select count(*)::bigint as n, count(distinct call_id)::bigint as calls from ledger_entries where tenant_id = ${t.tenantId} and event_type = 'AI_USAGE'`.execute(s().db);
    assert.equal(usage.rows[0].calls, usage.rows[0].n, 'no call charged twice');
    assert.equal(usage.rows[0].n, 10n, 'the ten finished calls are charged; the killed ones are not');
    const logs = await s().db.selectFrom('call_logs').select('id').where('tenant_id', '=', t.tenantId).where('status', '=', 'succeeded').execute();
    assert.equal(BigInt(logs.length), usage.rows[0].n);
  });
});
