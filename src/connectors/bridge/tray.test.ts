// The bridge's tray (D14) on a real desktop session: Xvfb, a private D-Bus session bus, dunst,
// and xfce4-panel with its Status Tray plugin as the StatusNotifierItem host (all Debian packages).
// The bridge signs in by device authorisation (approved over the API here; bridge.test.ts drives
// the /device page in Chromium), registers its item with the panel's
// org.kde.StatusNotifierWatcher, and the panel draws it. Over D-Bus (dbus-next as the client) the
// menu's GetLayout shows the test tenant's real balance, runway and today's savings, refreshed
// from the event stream after a call; "Open dashboard" runs the configured opener with the
// dashboard's URL, both from the panel's own menu (clicked with xdotool) and as a dbusmenu Event;
// "Sign out" ends the session and the bridge's service key and forgets the sign-in.
// With TRAY_SCREENSHOT=<file.png> the open menu is also saved there (scripts/tray-screenshot.sh).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import dbus from 'dbus-next';
import OpenAI from 'openai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { findColour, screenshot, startDesktop, toPng, xdotool, type Desktop } from '../../../test/desktop.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'sb-tray-'));
const signInFile = join(tmp, '.config', 'switchboard', 'bridge-signin.json');
const opened = join(tmp, 'opened.txt');
const ICON_BLUE: [number, number, number] = [0x25, 0x63, 0xeb];
let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
let desk: Desktop;
let monitor: ChildProcess;
let monitorOut = '';
let bridge: ChildProcess;
let bridgeErr = '';
let bridgeExit: Promise<number | null>;
let bus: dbus.MessageBus;
let itemName = '';

async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}\nbridge stderr:\n${bridgeErr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** 1 token = 1 USD micro: "1,234,567 tokens ($1.23)", written out here independently of the bridge. */
const tokens = (micros: bigint) => {
  const abs = micros < 0n ? -micros : micros;
  const sign = micros < 0n ? '-' : '';
  return `${sign}${abs.toLocaleString('en-US')} tokens (${sign}$${abs / 1_000_000n}.${String((abs % 1_000_000n) / 10_000n).padStart(2, '0')})`;
};

const spend = (prompt: string) => new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: prompt }] });

async function expectedLines() {
  const w = (await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken })).body.data as { balance: string; runway: number | null };
  const sv = (await srv.api('GET', '/api/tenant/insights/savings?window=7', { token: t.accessToken })).body.data as { series: Array<{ serviceBurnMicros: string; equivalentBurnMicros: string }> };
  const today = sv.series[sv.series.length - 1];
  const saved = BigInt(today.equivalentBurnMicros) - BigInt(today.serviceBurnMicros);
  assert.notEqual(saved, 0n, 'the test tenant has savings today');
  assert.ok(w.runway !== null, 'the tenant spent this week: it has a runway');
  // Worded as /overview words it (web/src/components/fns/money.ts).
  const runway = w.runway >= 3650 ? 'over 10 years' : `${w.runway.toFixed(1)} days`;
  return [`Balance: ${tokens(BigInt(w.balance))}`, `Runway: ${runway}`, `Saved today: ${tokens(saved)} vs OpenAI`];
}

async function menuLabels(): Promise<Array<{ id: number; label?: string; enabled?: boolean; type?: string }>> {
  const menu = (await bus.getProxyObject(itemName, '/MenuBar')).getInterface('com.canonical.dbusmenu');
  const [, [rootId, , children]] = (await menu.GetLayout(0, -1, [])) as [number, [number, Record<string, dbus.Variant>, dbus.Variant[]]];
  assert.equal(rootId, 0);
  return children.map((c) => {
    const [id, props] = c.value as [number, Record<string, dbus.Variant>];
    return { id, label: props.label?.value, enabled: props.enabled?.value, type: props.type?.value };
  });
}

async function registeredItems(): Promise<string[]> {
  const w = await bus.getProxyObject('org.kde.StatusNotifierWatcher', '/StatusNotifierWatcher');
  const v = (await w.getInterface('org.freedesktop.DBus.Properties').Get('org.kde.StatusNotifierWatcher', 'RegisteredStatusNotifierItems')) as dbus.Variant<string[]>;
  return v.value;
}

before(async () => {
  srv = await startTestServer({ env: { SSE_HEARTBEAT_MS: '300' } });
  // A tenant with a benchmark provider and spending today: a balance, a runway in days, savings.
  t = await tenantWithKey(srv, { micros: 20_000n });
  assert.equal((await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'openai' } })).status, 200);
  await spend(`Summarise this log in one line:\n${'2026-11-24 09:00 request served in 12 ms\n'.repeat(150)}`);
  desk = await startDesktop(tmp, { displayNumber: 300 + (process.pid % 500), panel: true, size: '800x480x24' });
  monitor = spawn('dbus-monitor', ['--address', desk.busAddress, "interface='org.freedesktop.Notifications',member='Notify'"], { stdio: ['ignore', 'pipe', 'ignore'] });
  monitor.stdout!.on('data', (d) => (monitorOut += d));
  bus = dbus.sessionBus({ busAddress: desk.busAddress });
  writeFileSync(join(tmp, 'opener.sh'), `#!/bin/sh\necho "$@" >> '${opened}'\n`);
  chmodSync(join(tmp, 'opener.sh'), 0o755);
});
after(async () => {
  bus?.disconnect();
  bridge?.kill('SIGTERM');
  monitor?.kill('SIGTERM');
  desk?.close();
  await srv.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the bridge’s tray icon and menu', () => {
  test('signed in, the bridge’s item registers with the panel’s StatusNotifierWatcher and the panel draws its icon', async () => {
    bridge = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'bridge'], {
      cwd: ROOT,
      // The session check is far off: menu values must follow the event stream.
      env: { ...desk.env(), SWITCHBOARD_URL: srv.url, SWITCHBOARD_DEVICE_NAME: 'Tray desktop', SWITCHBOARD_BRIDGE_CHECK_SECONDS: '3600', SWITCHBOARD_OPENER: join(tmp, 'opener.sh') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    bridge.stderr!.on('data', (d) => (bridgeErr += d));
    bridgeExit = new Promise((r) => bridge.on('exit', (c) => r(c)));
    const code = await until('the code on stderr', () => /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(bridgeErr)?.[1]);
    assert.equal((await srv.api('POST', '/api/auth/device/confirm', { token: t.accessToken, body: { userCode: code } })).status, 200);
    srv.clock.advance(60_000);
    await until('the bridge to start watching', () => /watching 1 project/.test(bridgeErr), 60_000);
    await until('the registration', () => /tray icon registered with the panel/.test(bridgeErr));
    itemName = `org.kde.StatusNotifierItem-${bridge.pid}-1`;
    assert.deepEqual(await registeredItems(), [`${itemName}/StatusNotifierItem`]);
    const item = (await bus.getProxyObject(itemName, '/StatusNotifierItem')).getInterface('org.freedesktop.DBus.Properties');
    assert.equal(((await item.Get('org.kde.StatusNotifierItem', 'Menu')) as dbus.Variant).value, '/MenuBar');
    const pixmaps = ((await item.Get('org.kde.StatusNotifierItem', 'IconPixmap')) as dbus.Variant<Array<[number, number, Buffer]>>).value;
    assert.ok(pixmaps.some(([w, h, argb]) => w === 22 && h === 22 && argb.length === 22 * 22 * 4));
    // The panel (top of the screen) shows the icon: its blue is on screen.
    const icon = await until('the icon in the panel', () => findColour(screenshot(desk), ICON_BLUE) ?? undefined);
    assert.ok(icon.y < 32 && icon.count > 50, JSON.stringify(icon));
  });

  test('GetLayout over D-Bus: the menu shows the tenant’s real balance, runway and today’s savings, refreshed after a call', async () => {
    const want = await expectedLines();
    const labels = await until('the menu to show the values', async () => {
      const l = await menuLabels();
      return l[0].label === want[0] && l;
    });
    assert.deepEqual(
      labels.map((l) => l.label ?? l.type),
      [...want, 'separator', 'Open dashboard', 'Sign out'],
    );
    assert.deepEqual(labels.slice(0, 3).map((l) => l.enabled), [false, false, false], 'the value lines are not actions');
    // A call spends from the wallet: the llm.call event on the stream refreshes the menu.
    await spend('Name three rivers.');
    const next = await expectedLines();
    assert.notEqual(next[0], want[0]);
    await until('the new balance in the menu', async () => (await menuLabels())[0].label === next[0]);
    assert.deepEqual((await menuLabels()).slice(0, 3).map((l) => l.label), next);
  });

  test('Open dashboard from the panel’s own menu, and as a dbusmenu Event, runs the opener with the dashboard URL', async () => {
    // The notifications (sign-in code, greeting) are dismissed so they do not cover the menu.
    execFileSync('dunstctl', ['close-all'], { env: desk.env() });
    await new Promise((r) => setTimeout(r, 300));
    const before = screenshot(desk);
    const icon = findColour(before, ICON_BLUE);
    assert.ok(icon);
    xdotool(desk, 'mousemove', String(icon.x), String(icon.y));
    await new Promise((r) => setTimeout(r, 300));
    xdotool(desk, 'click', '1');
    // The menu pops up under the panel: many pixels below it change.
    const shot = await until('the menu on screen', () => {
      const s = screenshot(desk);
      let changed = 0;
      for (let i = 32 * s.width * 3; i < s.rgb.length; i += 3) if (s.rgb[i] !== before.rgb[i] || s.rgb[i + 1] !== before.rgb[i + 1]) changed++;
      return changed > 5000 && s;
    });
    if (process.env.TRAY_SCREENSHOT) {
      const x = Math.max(0, Math.min(shot.width - 480, icon.x - 240));
      writeFileSync(process.env.TRAY_SCREENSHOT, toPng(shot, { x, y: 0, width: 480, height: 200 }));
    }
    // The first item that is an action is "Open dashboard": the keyboard picks it in the host's menu.
    await new Promise((r) => setTimeout(r, 300));
    xdotool(desk, 'key', 'Down', 'Return');
    const url = `${srv.url}/overview`;
    await until('the opener run by the panel’s menu', () => existsSync(opened) && readFileSync(opened, 'utf8').trim() === url);
    const menu = (await bus.getProxyObject(itemName, '/MenuBar')).getInterface('com.canonical.dbusmenu');
    await menu.Event(5, 'clicked', new dbus.Variant('i', 0), 0);
    await until('the opener run again by the Event', () => readFileSync(opened, 'utf8').trim().split('\n').length === 2);
    assert.deepEqual(readFileSync(opened, 'utf8').trim().split('\n'), [url, url]);
  });

  test('Sign out (Event "clicked"): the session and the bridge’s service key end, the sign-in is forgotten, the icon leaves the panel, exit 0', async () => {
    const saved = JSON.parse(readFileSync(signInFile, 'utf8')) as { sessionId: string; serviceKeyId: string };
    assert.ok(saved.serviceKeyId, 'the bridge made its service key at sign-in');
    const menu = (await bus.getProxyObject(itemName, '/MenuBar')).getInterface('com.canonical.dbusmenu');
    await menu.Event(6, 'clicked', new dbus.Variant('i', 0), 0);
    const code = await Promise.race([bridgeExit, new Promise<string>((r) => setTimeout(() => r('still running'), 20_000))]);
    assert.equal(code, 0, bridgeErr);
    assert.equal(existsSync(signInFile), false);
    const session = await srv.services.db.selectFrom('sessions').select(['revoked_at', 'revoke_reason']).where('id', '=', saved.sessionId).executeTakeFirstOrThrow();
    assert.ok(session.revoked_at);
    assert.equal(session.revoke_reason, 'logout');
    const key = await srv.services.db.selectFrom('api_keys').select(['revoked_at']).where('id', '=', saved.serviceKeyId).executeTakeFirstOrThrow();
    assert.ok(key.revoked_at, 'the bridge’s service key is revoked');
    assert.ok(monitorOut.includes('You signed out of Switchboard on this device.'));
    await until('the item gone from the watcher', async () => (await registeredItems()).length === 0);
  });
});
