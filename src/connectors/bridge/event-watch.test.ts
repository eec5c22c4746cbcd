// The bridge's event watch against the real server (D14, spec §6): what happens while the bridge
// is away (asleep, offline, stopped) is delivered when it comes back, because it resumes each
// project's stream with the Last-Event-ID it saved; nothing already seen is delivered twice.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { FileCredentialStore } from './credential-store.ts';
import { BridgeSession } from './bridge-session.ts';
import { EventWatch } from './event-watch.ts';
import type { Frame } from './alerts.ts';

const tmp = mkdtempSync(join(tmpdir(), 'sb-watch-'));
let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;

before(async () => {
  srv = await startTestServer({ env: { SSE_HEARTBEAT_MS: '300' } });
  t = await tenantWithKey(srv);
});
after(async () => {
  await srv.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function until<T>(what: string, f: () => T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('after a drop the watch resumes with Last-Event-ID: the missed call arrives, the seen one does not repeat', async () => {
  const login = (await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).body.data;
  const store = new FileCredentialStore(join(tmp, 'cfg'));
  await store.save({ baseUrl: srv.url, refreshToken: login.tokens.refreshToken, sessionId: 'watch-test', deviceName: 'watch test', tenantId: t.tenantId });
  const session = new BridgeSession((await store.load())!, store, () => undefined);
  const projectId = (await srv.api('GET', '/api/projects', { token: t.accessToken })).body.data.items[0].id as string;
  const idsFile = join(tmp, 'ids.json');
  const openai = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
  const callIdOf = (f: Frame) => (f.type === 'llm.call' ? String(f.payload.callId ?? f.payload.id ?? '') : '');

  const first: Frame[] = [];
  const w1 = new EventWatch(session, idsFile, (f) => first.push(f), () => undefined);
  const running = w1.watch(projectId);
  // Connected once a heartbeat or the `connected` record has come: wait for the stream to be open.
  await new Promise((r) => setTimeout(r, 700));
  const ra = await openai.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'First call.' }] }).withResponse();
  const callA = ra.response.headers.get('x-service-call-id')!;
  await until('call A on the stream', () => first.some((f) => callIdOf(f) === callA));
  w1.stop();
  await running;
  assert.ok(JSON.parse(readFileSync(idsFile, 'utf8'))[projectId], 'the last id is kept on disk');

  // While nobody is listening: call B.
  const rb = await openai.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Second call, while away.' }] }).withResponse();
  const callB = rb.response.headers.get('x-service-call-id')!;

  const second: Frame[] = [];
  const w2 = new EventWatch(session, idsFile, (f) => second.push(f), () => undefined);
  const running2 = w2.watch(projectId);
  try {
    await until('call B replayed after reconnecting', () => second.some((f) => callIdOf(f) === callB));
    assert.equal(second.some((f) => callIdOf(f) === callA), false, 'call A was already delivered: not replayed');
  } finally {
    w2.stop();
    await running2;
  }
});
