// A start-up that cannot succeed says so in one line (what is wrong, what to do), never with a
// stack trace (issue 14).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/store/embedded.ts';

async function start(env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-fail-'));
  const full: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SIM_PORT: '0', ...env };
  delete full.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], { env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  rmSync(dataDir, { recursive: true, force: true });
  return { code, out, err };
}

function assertOneLine(r: { code: number | null; err: string }, pattern: RegExp): void {
  assert.equal(r.code, 1, r.err);
  const lines = r.err.split('\n').filter((l) => l.trim());
  assert.equal(lines.length, 1, `one line, got:\n${r.err}`);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(r.err, /^\s+at /m, 'no stack trace');
}

test('the port is taken: one line naming it and PORT', { timeout: 60_000 }, async () => {
  const port = await freePort();
  const blocker = net.createServer().listen(port, '127.0.0.1');
  await new Promise((r) => blocker.once('listening', r));
  try {
    const r = await start({ PORT: String(port), DATABASE_URL: process.env.DATABASE_URL! });
    assertOneLine(r, new RegExp(`^Switchboard cannot start: 127\\.0\\.0\\.1:${port} is already in use; .*set PORT`));
  } finally {
    blocker.close();
  }
});

test('DATABASE_URL points at nothing: one line naming the database and what to do', { timeout: 60_000 }, async () => {
  const dead = await freePort();
  const r = await start({ PORT: '0', DATABASE_URL: `postgres://postgres@127.0.0.1:${dead}/nowhere` });
  assertOneLine(r, new RegExp(`^Switchboard cannot start: cannot use the database at 127\\.0\\.0\\.1:${dead}/nowhere .*unset DATABASE_URL`));
});

test('DATA_DIR is a file: one line naming the path', { timeout: 60_000 }, async () => {
  const r = await start({ PORT: '0', DATA_DIR: '/etc/hostname' });
  assertOneLine(r, /^Switchboard cannot start: .*\/etc\/hostname/);
});
