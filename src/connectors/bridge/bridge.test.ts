// `switchboard bridge` as a person runs it (D14), on a real desktop session: a private D-Bus
// session bus, Xvfb and the dunst notification daemon (Debian packages), the bridge process
// itself, and the real server. Sign-in by device authorisation, the refresh token in a 0600
// file, a notification observed on the bus when the balance crosses the user's threshold, a
// token refresh across an access-token expiry, and revocation seen by the bridge.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

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
  for (const p of [bridge, ...procs].reverse()) p?.kill('SIGTERM');
  await srv.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('switchboard bridge on a desktop session', () => {
  test('device sign-in: the code is shown, approved, and the refresh token kept in a 0600 file', async () => {
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
    const ok = await srv.api('POST', '/api/auth/device/confirm', { token: t.accessToken, body: { userCode: code } });
    assert.equal(ok.status, 200);
    await until('the bridge to start watching', () => /watching 1 project/.test(bridgeErr), 20_000);
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
  });
});
