// Ledger checkpoints and the offline verifier (D17, issue 24 item 6), end to end: a real server,
// real calls through the OpenAI SDK (plain and streamed) and the Anthropic SDK, the public key
// from /.well-known/switchboard-ledger-key, checkpoints taken by the owner on demand, by the
// hourly job (run by the real worker) and by the export, then `switchboard verify-export` as a
// user runs it (bin/switchboard.js → dist/main.js). An untouched export verifies; one edited field
// fails at exactly the edited row; an edited checkpoint signature fails at that checkpoint; a
// forger who recomputes balances and digests without the key fails at the signed checkpoint.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, tenantWithKey, signupTenant, credit, type TestServer } from './harness.ts';
import { eventually } from './helpers.ts';
import { LEDGER_CHECKPOINT_QUEUE } from '../src/jobs/ledger-checkpoints.job.ts';
import { nextChainDigest, type LedgerExport } from '../src/core/ledger/checkpoint.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
let srv: TestServer;
let dir: string;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
let exported: LedgerExport;
let exportFile: string;
let keyFile: string;

before(async () => {
  execFileSync('npm', ['run', 'build:server', '--silent'], { cwd: ROOT, stdio: 'ignore' });
  srv = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'sb-ledger-export-'));
});
after(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

function verifyCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['bin/switchboard.js', 'verify-export', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => resolve({ code, stdout: out, stderr: err }));
  });
}

/** Write a changed copy of the export and verify it with the key file. */
async function verifyTampered(change: (e: LedgerExport) => void) {
  const copy = structuredClone(exported);
  change(copy);
  const file = join(dir, `tampered-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(copy));
  return verifyCli([file, '--key', keyFile]);
}

describe('ledger checkpoints and switchboard verify-export', () => {
  test('the public key is at /.well-known/switchboard-ledger-key, without a token, as a JWK Set with its PEM', async () => {
    const r = await fetch(`${srv.url}/.well-known/switchboard-ledger-key`);
    assert.equal(r.status, 200);
    const body = (await r.json()) as { keys: Array<Record<string, string>>; kid: string; alg: string; pem: string };
    assert.equal(body.keys.length, 1);
    const jwk = body.keys[0];
    assert.deepEqual([jwk.kty, jwk.crv, jwk.alg, jwk.use], ['OKP', 'Ed25519', 'EdDSA', 'sig']);
    assert.equal(jwk.d, undefined, 'the private part is never published');
    // kid is the RFC 7638 thumbprint, recomputable by anyone.
    const thumb = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${jwk.x}"}`).digest('base64url');
    assert.equal(jwk.kid, thumb);
    assert.equal(body.kid, thumb);
    const fromPem = createPublicKey(body.pem).export({ format: 'jwk' }) as { x: string };
    assert.equal(fromPem.x, jwk.x);
    keyFile = join(dir, 'key.json');
    writeFileSync(keyFile, JSON.stringify(body));
  });

  test('real calls, an on-demand checkpoint by the owner, the hourly job and the export: the export verifies offline', async () => {
    t = await tenantWithKey(srv);
    const openai = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0 });
    for (let i = 0; i < 3; i++) {
      const c = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Say hello number ${i}` }] });
      assert.ok(c.choices[0].message.content);
    }
    const stream = await openai.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Count to five' }] });
    for await (const _ of stream) {
      /* drain */
    }
    const m = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
    assert.ok(m.content.length > 0);
    // 1 credit + 5 calls, each settled (the response waits for its debit).
    const ledger = await srv.api('GET', '/api/tenant/ledger?limit=200', { token: t.accessToken });
    assert.equal(ledger.body.data.items.length, 6);

    const cp = await srv.api('POST', '/api/tenant/ledger/checkpoints', { token: t.accessToken });
    assert.equal(cp.status, 200, JSON.stringify(cp.body));
    assert.equal(cp.body.data.checkpoint.sequence, '6');
    assert.equal(cp.body.data.checkpoint.tenantId, t.tenantId);
    assert.equal(cp.body.data.checkpoint.balanceMicros, ledger.body.data.items[0].balanceAfterMicros);
    assert.equal(cp.body.data.checkpoint.sealHash, ledger.body.data.items[0].sealHash);
    // Asking again without a new entry returns the same checkpoint, not a second one.
    const again = await srv.api('POST', '/api/tenant/ledger/checkpoints', { token: t.accessToken });
    assert.deepEqual(again.body.data.checkpoint, cp.body.data.checkpoint);

    // The hourly job, run by the real worker: it signs tenants whose ledger moved, and only those.
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'One more' }] });
    const idle = await signupTenant(srv, 'idle');
    await srv.services.boss.send(LEDGER_CHECKPOINT_QUEUE, {});
    const list = await eventually(async () => {
      const l = await srv.api('GET', '/api/tenant/ledger/checkpoints', { token: t.accessToken });
      return l.body.data.items.length === 2 ? l : undefined;
    }, 30_000);
    assert.deepEqual(list.body.data.items.map((c: { sequence: string }) => c.sequence), ['7', '6']);
    const idleList = await srv.api('GET', '/api/tenant/ledger/checkpoints', { token: idle.accessToken });
    assert.deepEqual(idleList.body.data.items, [], 'a tenant with an empty ledger has nothing to sign, and sees no other tenant\'s checkpoints');

    await credit(srv, t.tenantId, 1_000_000n);
    const res = await fetch(`${srv.url}/api/tenant/ledger/export?format=json`, { headers: { authorization: `Bearer ${t.accessToken}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const text = await res.text();
    exported = JSON.parse(text) as LedgerExport;
    assert.equal(exported.format, 'switchboard-ledger-export/v1');
    assert.equal(exported.entries.length, 8);
    assert.deepEqual(exported.checkpoints.map((c) => c.sequence), ['6', '7', '8'], 'the export takes a checkpoint at its last row');
    for (const e of exported.entries) {
      for (const internal of ['eventType', 'modelId', 'providerKey', 'actualCostUsdMicros', 'baselineCostUsdMicros']) assert.equal(internal in e, false, internal);
    }
    exportFile = join(dir, 'export.json');
    writeFileSync(exportFile, text);

    const okFile = await verifyCli([exportFile, '--key', keyFile]);
    assert.equal(okFile.code, 0, okFile.stdout + okFile.stderr);
    assert.match(okFile.stdout, /^OK: 8 row\(s\) and 3 signed checkpoint\(s\) verify/);
    const okUrl = await verifyCli([exportFile, '--key-url', `${srv.url}/.well-known/switchboard-ledger-key`]);
    assert.equal(okUrl.code, 0, okUrl.stdout + okUrl.stderr);
    // The PEM form of the key works too.
    const pemFile = join(dir, 'key.pem');
    writeFileSync(pemFile, (JSON.parse(await (await fetch(`${srv.url}/.well-known/switchboard-ledger-key`)).text()) as { pem: string }).pem);
    assert.equal((await verifyCli([exportFile, '--key', pemFile])).code, 0);
  });

  test('an edited amount, balance or seal fails at exactly that row', async () => {
    const row = 3; // sequence 4, a call in the middle
    const amount = await verifyTampered((e) => (e.entries[row].amountMicros = (BigInt(e.entries[row].amountMicros) - 1n).toString()));
    assert.equal(amount.code, 1);
    assert.match(amount.stdout, new RegExp(`^FAILED at row 4 \\(sequence 4, id ${exported.entries[row].id}\\): balanceAfterMicros`));

    const balance = await verifyTampered((e) => (e.entries[row].balanceAfterMicros = (BigInt(e.entries[row].balanceAfterMicros) + 1_000_000n).toString()));
    assert.equal(balance.code, 1);
    assert.match(balance.stdout, /^FAILED at row 4 \(sequence 4, /);

    const seal = await verifyTampered((e) => (e.entries[row].sealHash = 'f'.repeat(64)));
    assert.equal(seal.code, 1);
    assert.match(seal.stdout, /^FAILED at row 4 \(sequence 4, .*chainDigest does not match/);

    const label = await verifyTampered((e) => (e.entries[0].customerLabel = 'Refund'));
    assert.match(label.stdout, /^FAILED at row 1 \(sequence 1, /);

    const dropped = await verifyTampered((e) => e.entries.splice(row, 1));
    assert.match(dropped.stdout, /^FAILED at row 4 \(sequence 5, .*expected sequence 4/);
  });

  test('a forger without the key who recomputes balances and digests fails at the signed checkpoint', async () => {
    const r = await verifyTampered((e) => {
      // Take 1 micro less on sequence 4, and carry it through every later balance and digest.
      e.entries[3].amountMicros = (BigInt(e.entries[3].amountMicros) + 1n).toString();
      let digest = '0'.repeat(64);
      let balance = 0n;
      for (const x of e.entries) {
        balance += BigInt(x.amountMicros);
        x.balanceAfterMicros = balance.toString();
        x.chainDigest = nextChainDigest(digest, x);
        digest = x.chainDigest;
      }
    });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^FAILED at checkpoint 1 \(sequence 6\): the row at sequence 6 does not carry the signed balance/);
  });

  test('an edited checkpoint signature or head fails at that checkpoint; a missing last checkpoint is reported', async () => {
    const sig = await verifyTampered((e) => {
      const s = Buffer.from(e.checkpoints[1].signature, 'base64url');
      s[10] ^= 1;
      e.checkpoints[1].signature = s.toString('base64url');
    });
    assert.equal(sig.code, 1);
    assert.match(sig.stdout, /^FAILED at checkpoint 2 \(sequence 7\): .*Ed25519 signature does not verify/);

    const moved = await verifyTampered((e) => (e.checkpoints[0].balanceMicros = '1'));
    assert.match(moved.stdout, /^FAILED at checkpoint 1 \(sequence 6\): .*signature does not verify/);

    const uncovered = await verifyTampered((e) => e.checkpoints.pop());
    assert.equal(uncovered.code, 1);
    assert.match(uncovered.stdout, /rows after sequence 7 are not covered by a signed checkpoint/);

    // Another server's key (another tenant's export would be signed by it) is refused by key id.
    const other = await startTestServer({ database: srv.database, sim: srv.sim, worker: false });
    try {
      const otherKey = join(dir, 'other-key.json');
      writeFileSync(otherKey, await (await fetch(`${other.url}/.well-known/switchboard-ledger-key`)).text());
      const wrong = await verifyCli([exportFile, '--key', otherKey]);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stdout, /is signed by key .*, not by the key given/);
    } finally {
      await other.close();
    }
  });

  test('usage errors and the API edges answer clearly', async () => {
    const none = await verifyCli([exportFile]);
    assert.equal(none.code, 64);
    assert.match(none.stderr, /exactly one of --key or --key-url/);
    const missing = await verifyCli([join(dir, 'nope.json'), '--key', keyFile]);
    assert.equal(missing.code, 66);
    const csv = join(dir, 'not-an-export.json');
    writeFileSync(csv, '{"hello":1}');
    const wrongFormat = await verifyCli([csv, '--key', keyFile]);
    assert.equal(wrongFormat.code, 1);
    assert.match(wrongFormat.stdout, /format=json/);

    const filtered = await srv.api('GET', '/api/tenant/ledger/export?format=json&type=Top-up', { token: t.accessToken });
    assert.equal(filtered.status, 400);
    assert.equal(filtered.body.code, 'validation');
    assert.match(filtered.body.error, /^type: .*takes no filters/);
    const unauth = await srv.api('GET', '/api/tenant/ledger/checkpoints');
    assert.equal(unauth.status, 401);
    // The CSV export is unchanged by the JSON one (the spreadsheet view).
    const csvExport = await srv.api('GET', '/api/tenant/ledger/export', { token: t.accessToken });
    assert.equal(csvExport.status, 200);
    assert.match(String(csvExport.body), /^id,createdAt,label,/);
  });
});
