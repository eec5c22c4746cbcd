// `switchboard advisory <file>` as a user runs it: the package bin (bin/switchboard.js → the built
// dist/main.js) against a real server on a free port, with a service key or a user's token. The
// report is on stdout in the locked vocabulary (no model ids), the progress on stderr.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { allModels } from '../../core/pricing/price-book.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let srv: TestServer;
let dir: string;
before(async () => {
  execFileSync('npm', ['run', 'build:server', '--silent'], { cwd: ROOT, stdio: 'ignore' });
  srv = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'adv17-cli-'));
});
after(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['bin/switchboard.js', 'advisory', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => resolve({ code, stdout: out, stderr: err }));
  });
}

const CSV = [
  'timestamp,provider,model,prompt,completion,input_tokens,output_tokens',
  '2026-10-02T08:00:00Z,openai,gpt-4o,"Write a Rust function that reverses a linked list in place, with tests.",ok,1000,500',
  '2026-10-02T08:01:00Z,anthropic,claude-opus-4-1,"Translate to Spanish: good morning, the train leaves at nine.",ok,200,40',
  '2026-10-02T08:02:00Z,openai,gpt-4o,prompt,completion,lots,5',
].join('\n');

const modelIds = allModels().map((m) => m.id);

describe('switchboard advisory <file>', () => {
  test('with a service key and a benchmark provider: progress on stderr, the report on stdout, no model ids', async () => {
    const t = await tenantWithKey(srv);
    await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'openai' } });
    const file = join(dir, 'history.csv');
    writeFileSync(file, CSV);
    const r = await run([file], { SWITCHBOARD_URL: srv.url, SWITCHBOARD_API_KEY: t.key });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /uploading 100%/);
    assert.match(r.stderr, /classifying 100% 3 \/ 3 rows/);
    assert.match(r.stdout, /^Switchboard advisory report — history\.csv$/m);
    assert.match(r.stdout, /: done; 3 rows, 2 classified, 1 malformed/);
    assert.match(r.stdout, /^Benchmark provider: OpenAI$/m);
    assert.match(r.stdout, /Calls {2}Historical cost {2}Would-have cost {2}OpenAI-equivalent burn {2}Tokens saved {2}% saved/);
    assert.match(r.stdout, /^Total +2 /m);
    assert.match(r.stdout, /^coding +1 /m);
    assert.match(r.stdout, /^translation +1 /m);
    assert.match(r.stdout, /line 4: input_tokens is not a non-negative integer/);
    for (const id of modelIds) assert.ok(!r.stdout.includes(id), `model id ${id} in the report`);
    assert.doesNotMatch(r.stdout, /uploading|classifying/, 'stdout is the report only');
    const rep = (await srv.api('GET', '/api/advisory/imports', { token: t.accessToken })).body.data.items[0];
    assert.equal(rep.status, 'done');
    assert.match(r.stdout, new RegExp(`/api/advisory/imports/${rep.id}/export`));
  });

  test('with a user token and no benchmark provider: the report says how to choose one instead of a 0 %', async () => {
    const t = await tenantWithKey(srv);
    const file = join(dir, 'h2.csv');
    writeFileSync(file, CSV);
    const r = await run([file], { SWITCHBOARD_URL: srv.url, SWITCHBOARD_TOKEN: t.accessToken });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`Benchmark provider: not chosen\\. Choose one at ${srv.url}/billing`));
    assert.doesNotMatch(r.stdout, /% saved\s*$/m);
    assert.doesNotMatch(r.stdout, /\b0\.0 %/);
    const json = await run([file, '--json'], { SWITCHBOARD_URL: srv.url, SWITCHBOARD_TOKEN: t.accessToken });
    assert.equal(JSON.parse(json.stdout).totals.tokensSaved, null);
  });

  test('errors are one readable line with a sysexits code', async () => {
    const file = join(dir, 'h3.csv');
    writeFileSync(file, CSV);
    const bad = await run([file], { SWITCHBOARD_URL: srv.url, SWITCHBOARD_API_KEY: 'svc_live_notarealkeynotarealkeynotarealk000000' });
    assert.equal(bad.code, 77);
    assert.match(bad.stderr, /^switchboard advisory: The service key is invalid/m);
    assert.equal(bad.stdout, '');
    const none = await run([file], { SWITCHBOARD_URL: srv.url });
    assert.equal(none.code, 77);
    assert.match(none.stderr, /Set SWITCHBOARD_API_KEY/);
    const missing = await run([join(dir, 'nope.csv')], { SWITCHBOARD_URL: srv.url, SWITCHBOARD_API_KEY: 'x' });
    assert.equal(missing.code, 66);
    assert.match(missing.stderr, /no such file/);
    const usage = await run([], { SWITCHBOARD_URL: srv.url });
    assert.equal(usage.code, 64);
    assert.match(usage.stderr, /usage: switchboard advisory <file/);
  });
});
