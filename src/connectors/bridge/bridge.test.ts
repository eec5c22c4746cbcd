// `switchboard bridge` as a person runs it (D14), on a real desktop session: a private D-Bus
// session bus, Xvfb and the dunst notification daemon (Debian packages), the bridge process
// itself, and the real server. Sign-in by device authorisation, the refresh token in a 0600
// file, the code approved by a person in headless Chromium on /device, an MCP SDK client calling
// `ask` through `switchboard bridge mcp` (no key pasted) landing in the ledger on channel
// `bridge`, a notification observed on the bus when the balance crosses the user's threshold, a
// token refresh across an access-token expiry, and revocation seen by the bridge.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Browser } from 'playwright-core';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { buildWeb } from '../../../scripts/build-web.ts';
import { launch, openPage } from '../../../test/web/browser.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'sb-bridge-'));
const procs: ChildProcess[] = [];
let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
let busAddress = '';
let display = '';
let monitorOut = '';
let bridgeErr = '';
let bridge: ChildProcess;
let bridgeExit: Promise<number | null>;
let browser: Browser | undefined;

async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}\nbridge stderr:\n${bridgeErr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const desktopEnv = () => ({ PATH: process.env.PATH ?? '', HOME: tmp, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: busAddress });

before(async () => {
  await buildWeb({ quiet: true });
  srv = await startTestServer({ env: { SSE_HEARTBEAT_MS: '300' } });
  t = await tenantWithKey(srv, { micros: 5_000_000n });
  // X first, then a session bus of our own on a path socket (no abstract namespace) that knows
  // the display (it may start dunst itself by activation), then dunst on both.
  display = `:${100 + (process.pid % 800)}`;
  procs.push(spawn('Xvfb', [display, '-nolisten', 'tcp', '-screen', '0', '1024x768x24'], { stdio: 'ignore' }));
  await until('Xvfb', () => existsSync(`/tmp/.X11-unix/X${display.slice(1)}`));
  const bus = spawn('dbus-daemon', ['--session', `--address=unix:path=${join(tmp, 'bus')}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, DISPLAY: display } });
  procs.push(bus);
  busAddress = await new Promise<string>((res) => bus.stdout!.once('data', (d) => res(String(d).trim())));
  procs.push(spawn('dunst', [], { env: desktopEnv(), stdio: 'ignore' }));
  const monitor = spawn('dbus-monitor', ['--address', busAddress, "interface='org.freedesktop.Notifications',member='Notify'"], { stdio: ['ignore', 'pipe', 'ignore'] });
  monitor.stdout!.on('data', (d) => (monitorOut += d));
  procs.push(monitor);
  await until('dunst on the bus', () => {
    try {
      execFileSync('dunstctl', ['is-paused'], { env: desktopEnv(), stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  });
});
after(async () => {
  await browser?.close();
  for (const p of [bridge, ...procs].reverse()) p?.kill('SIGTERM');
  await srv.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('switchboard bridge on a desktop session', () => {
  test('device sign-in: the code is shown, approved in the browser on /device, and the refresh token kept in a 0600 file', async () => {
    bridge = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'bridge'], {
      cwd: ROOT,
      env: { ...desktopEnv(), SWITCHBOARD_URL: srv.url, SWITCHBOARD_DEVICE_NAME: 'Test desktop', SWITCHBOARD_BRIDGE_CHECK_SECONDS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    bridge.stderr!.on('data', (d) => (bridgeErr += d));
    let out = '';
    bridge.stdout!.on('data', (d) => (out += d));
    bridgeExit = new Promise((r) => bridge.on('exit', (c) => r(c)));
    const code = await until('the code on stderr', () => /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(bridgeErr)?.[1]);
    await until('the code as a desktop notification', () => monitorOut.includes(`Switchboard: sign in with code ${code}`));
    // A person opens the link the bridge printed, signs in, and approves the device.
    const link = await until('the approval link', () => /\(or open (\S+)\)/.exec(bridgeErr)?.[1]);
    assert.equal(new URL(link).searchParams.get('code'), code);
    browser = await launch();
    const { page } = await openPage(browser);
    await page.goto(link);
    await page.waitForURL((x) => x.pathname === '/login');
    await page.getByLabel('E-mail').fill(t.email);
    await page.getByLabel('Password').fill(t.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in “Test desktop”?' }).waitFor();
    assert.match(await page.getByRole('main').innerText(), new RegExp(code));
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Device signed in' }).waitFor();
    await browser.close();
    browser = undefined;
    // The server's test clock stands still: while the person was busy in the browser, the
    // bridge's polls came "too soon" by it and it was told to slow down. Let time pass.
    srv.clock.advance(60_000);
    await until('the bridge to start watching', () => /watching 1 project/.test(bridgeErr), 60_000);
    await until('the greeting on the bus', () => monitorOut.includes('Switchboard bridge is on'));
    const file = join(tmp, '.config', 'switchboard', 'bridge-signin.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(tmp, '.config', 'switchboard')).mode & 0o777, 0o700);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.deviceName, 'Test desktop');
    assert.equal(out, '', 'nothing on stdout');
    const sessions = (await srv.api('GET', '/api/users/me/sessions', { token: t.accessToken })).body.data.items;
    assert.ok(sessions.some((s: { id: string; name: string }) => s.id === saved.sessionId && s.name === 'Test desktop'));
  });

  test('a balance crossing the user’s threshold becomes a desktop notification', async () => {
    const w = (await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken })).body.data;
    assert.equal((await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { balanceThresholdMicros: w.balance } })).status, 200);
    await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Spend a little.' }] });
    await until('the wallet alert on the bus', () => monitorOut.includes('Switchboard: wallet balance low'), 20_000);
    assert.match(monitorOut, new RegExp(`Top up at ${srv.url.replace(/[.]/g, '\\.')}/billing`));
    // dunst received it: closing the open notifications moves them to its history.
    execFileSync('dunstctl', ['close-all'], { env: desktopEnv() });
    const history = execFileSync('dunstctl', ['history'], { env: desktopEnv() }).toString();
    assert.match(history, /wallet balance low/);
  });

  test('an MCP client launches `switchboard bridge mcp` (no key pasted): ask lands in the ledger on channel bridge', async () => {
    // The running bridge made its key at sign-in, named after the device.
    const file = join(tmp, '.config', 'switchboard', 'bridge-signin.json');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.match(saved.serviceKey, /\S{20,}/);
    const keys = (await srv.api('GET', '/api/keys', { token: t.accessToken })).body.data.items as Array<{ id: string; name: string; revokedAt: string | null }>;
    assert.ok(keys.some((k) => k.id === saved.serviceKeyId && k.name === 'Desktop bridge (Test desktop)' && k.revokedAt === null));

    let mcpErr = '';
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/main.ts', 'bridge', 'mcp'], cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: tmp }, stderr: 'pipe' });
    transport.stderr?.on('data', (d) => (mcpErr += d));
    const client = new Client({ name: 'bridge-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((x) => x.name).sort(), ['ask', 'recent_activity', 'savings', 'wallet']);
      const before = (await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken })).body.data.balance;
      const r = await client.callTool({ name: 'ask', arguments: { prompt: 'Name one ocean.', maxTokens: 50 } });
      assert.equal(r.isError, undefined, JSON.stringify(r.content) + mcpErr);
      const s = r.structuredContent as { text: string; callId: string; costMicros: string };
      assert.ok(s.text.length > 0);
      const row = await srv.services.db.selectFrom('call_logs').select(['channel', 'tenant_id']).where('id', '=', s.callId).executeTakeFirstOrThrow();
      assert.equal(row.channel, 'bridge:chat');
      assert.equal(row.tenant_id, t.tenantId);
      const entry = await srv.services.db.selectFrom('ledger_entries').select(['amount_micros', 'event_type']).where('call_id', '=', s.callId).executeTakeFirstOrThrow();
      assert.equal(entry.event_type, 'AI_USAGE');
      assert.equal(-entry.amount_micros, BigInt(s.costMicros));
      const after = (await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken })).body.data.balance;
      assert.equal(BigInt(before) - BigInt(after), BigInt(s.costMicros));
      // The call log the user reads shows it on channel bridge.
      const activity = (await client.callTool({ name: 'recent_activity', arguments: {} })).structuredContent as { items: Array<{ id: string; channel: string }> };
      assert.equal(activity.items.find((x) => x.id === s.callId)?.channel, 'bridge');
      assert.match(mcpErr, /connected to .* as project/);
    } finally {
      await client.close();
    }
    // The bridge's own sign-in was not disturbed: the same refresh token, still valid.
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).refreshToken, saved.refreshToken);
  });

  test('across an access-token expiry the bridge refreshes (and saves the rotated refresh token)', async () => {
    const file = join(tmp, '.config', 'switchboard', 'bridge-signin.json');
    const before = JSON.parse(readFileSync(file, 'utf8')).refreshToken;
    srv.clock.advance(16 * 60_000);
    await until('a rotated refresh token', () => JSON.parse(readFileSync(file, 'utf8')).refreshToken !== before, 15_000);
    const row = await srv.services.db.selectFrom('sessions').select(['revoked_at']).where('id', '=', JSON.parse(readFileSync(file, 'utf8')).sessionId).executeTakeFirstOrThrow();
    assert.equal(row.revoked_at, null);
  });

  test('revoking the session on /security signs the bridge out: a notification, the file gone, exit 77', async () => {
    const token = (await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).body.data.tokens.accessToken;
    const saved = JSON.parse(readFileSync(join(tmp, '.config', 'switchboard', 'bridge-signin.json'), 'utf8'));
    assert.equal((await srv.api('DELETE', `/api/users/me/sessions/${saved.sessionId}`, { token })).status, 200);
    const code = await Promise.race([bridgeExit, new Promise<string>((r) => setTimeout(() => r('still running'), 20_000))]);
    assert.equal(code, 77, bridgeErr);
    assert.ok(monitorOut.includes('Switchboard: signed out'));
    assert.equal(existsSync(join(tmp, '.config', 'switchboard', 'bridge-signin.json')), false);
    // The service key `switchboard bridge mcp` used ended with the session.
    const key = await srv.services.db.selectFrom('api_keys').select(['revoked_at']).where('id', '=', saved.serviceKeyId).executeTakeFirstOrThrow();
    assert.ok(key.revoked_at, 'the bridge’s service key is revoked with its session');
    const models = await fetch(`${srv.url}/v1/models`, { headers: { authorization: `Bearer ${saved.serviceKey}` } });
    assert.equal(models.status, 401, 'and refused at once');
  });
});
