// Files that hold tokens are readable by their owner only (issue 22): the e-mail outbox (sign-in
// and verification links), secrets.json and demo.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, signupTenant } from './harness.ts';
import { eventually } from './helpers.ts';
import { loadConfig } from '../src/config.ts';
import { loadSecrets } from '../src/app/shared/secrets.ts';
import { ensureDemo } from '../src/runtime/demo.ts';

const modeOf = (p: string) => statSync(p).mode & 0o777;

test('a verification e-mail in the outbox is 0600 in a 0700 folder', async () => {
  const srv = await startTestServer();
  try {
    const t = await signupTenant(srv, 'mail');
    const r = await srv.api('POST', '/api/users/me/verify-email', { token: t.accessToken });
    assert.ok(r.status < 300, JSON.stringify(r.body));
    const dir = join(srv.dataDir, 'outbox');
    const files = await eventually(async () => {
      try {
        const f = readdirSync(dir);
        return f.length ? f : undefined;
      } catch {
        return undefined;
      }
    });
    assert.equal(modeOf(dir), 0o700);
    for (const f of files) assert.equal(modeOf(join(dir, f)), 0o600, f);
  } finally {
    await srv.close();
  }
});

test('secrets.json is 0600 when made, and tightened when found wider', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-secrets-'));
  try {
    const cfg = loadConfig({ DATA_DIR: dir });
    await loadSecrets(cfg);
    assert.equal(modeOf(join(dir, 'secrets.json')), 0o600);

    chmodSync(join(dir, 'secrets.json'), 0o644);
    await loadSecrets(cfg);
    assert.equal(modeOf(join(dir, 'secrets.json')), 0o600);

    // A half-written file from elsewhere is completed, and ends up private.
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ jwt: 'j'.repeat(64) }), { mode: 0o644 });
    await loadSecrets(cfg);
    assert.equal(modeOf(join(dir, 'secrets.json')), 0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('demo.json is 0600, and tightened when found wider on a later start', async () => {
  const srv = await startTestServer();
  try {
    const file = join(srv.dataDir, 'demo.json');
    await ensureDemo(srv.services);
    assert.equal(modeOf(file), 0o600);
    chmodSync(file, 0o644);
    await ensureDemo(srv.services);
    assert.equal(modeOf(file), 0o600);
  } finally {
    await srv.close();
  }
});
