// `switchboard bridge` (tier 4, D14): the desktop side of Switchboard for one person.
//   switchboard bridge          sign in if needed (device authorisation), then show the tray icon
//                               and menu (tray.ts: balance, runway, today's savings, open dashboard,
//                               sign out) and turn the alerts of the user's projects into desktop
//                               notifications until signed out
//   switchboard bridge login    sign in (again) and exit
//   switchboard bridge logout   sign out on this machine: the session (and its service key) ends
//   switchboard bridge status   who is signed in, and whether the session still stands
//   switchboard bridge mcp      the stdio MCP server for local MCP clients, on the bridge's own
//                               credentials (bridge-mcp.ts), calls on channel `bridge`
// The sign-in is kept in the OS keychain (Secret Service) when one answers, else a 0600 file.
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ConnectorConfig } from '../../config.ts';
import { openCredentialStore } from './keychain-store.ts';
import { BridgeSession, deviceSignIn, SignedOut } from './bridge-session.ts';
import { DesktopNotifier } from './desktop-notifier.ts';
import { EventWatch } from './event-watch.ts';
import { ALERT_TYPES, alertFor, type Alert } from './alerts.ts';
import { bridgeMcpCommand, EXIT_SIGNED_OUT, ensureBridgeKey, revokeBridgeKey } from './bridge-mcp.ts';
import { Tray } from './tray.ts';
import { readTrayLines } from './tray-status.ts';

/** Sign out on this machine: the bridge's key and the session end on the server, the sign-in here is forgotten. */
async function signOutHere(session: BridgeSession, store: { clear(): Promise<void> }, log: (line: string) => void): Promise<void> {
  const why = (e: unknown) => (e instanceof Error ? e.message : String(e));
  await revokeBridgeKey(session).catch((e) => log(`switchboard bridge: the bridge's service key could not be revoked (${why(e)}); revoke "Desktop bridge (${session.deviceName})" on the keys page`));
  await session.send('POST', '/api/auth/logout').catch((e) => {
    if (!(e instanceof SignedOut)) log(`switchboard bridge: the session could not be ended on the server (${why(e)}); end "${session.deviceName}" on the Security page`);
  });
  await store.clear();
}

function configDir(cfg: ConnectorConfig): string {
  if (cfg.SWITCHBOARD_CONFIG_DIR) return cfg.SWITCHBOARD_CONFIG_DIR;
  const base = cfg.XDG_CONFIG_HOME ?? (cfg.HOME ? join(cfg.HOME, '.config') : null);
  if (!base) throw new Error('set HOME, XDG_CONFIG_HOME or SWITCHBOARD_CONFIG_DIR: the bridge needs a folder for its sign-in');
  return join(base, 'switchboard');
}

export async function bridgeCommand(cfg: ConnectorConfig, sub: string | undefined): Promise<void> {
  const log = (line: string) => process.stderr.write(line + '\n');
  const dir = configDir(cfg);
  const { store, why } = await openCredentialStore(dir);
  if (sub !== 'mcp') log(`switchboard bridge: ${why}`);
  const notifier = new DesktopNotifier();
  const desktop = async (a: Alert) => {
    try {
      await notifier.notify(a);
    } catch (e) {
      log(`switchboard bridge: ${a.summary}: ${a.body} (${e instanceof Error ? e.message : e})`);
    }
  };
  const signIn = async () => {
    const deviceName = cfg.SWITCHBOARD_DEVICE_NAME ?? hostname();
    return deviceSignIn(cfg.SWITCHBOARD_URL, deviceName, store, (p) => {
      log(`To sign in "${deviceName}", open ${p.verificationUri} and enter the code ${p.userCode} (or open ${p.verificationUriComplete}). It expires in ${Math.round(p.expiresIn / 60)} minutes.`);
      void desktop({ summary: `Switchboard: sign in with code ${p.userCode}`, body: `Open ${p.verificationUriComplete} and approve “${deviceName}”.`, urgency: 'normal' });
    });
  };

  switch (sub) {
    case 'mcp':
      return bridgeMcpCommand(store);
    case 'logout': {
      const s = await store.load();
      if (s) await signOutHere(new BridgeSession(s, store, () => undefined), store, log);
      else await store.clear();
      store.close?.();
      log('switchboard bridge: signed out on this machine');
      return;
    }
    case 'login':
      await signIn();
      store.close?.();
      log('switchboard bridge: signed in');
      return;
    case 'status': {
      const s = await store.load();
      if (!s) {
        log('switchboard bridge: signed out');
        process.exit(EXIT_SIGNED_OUT);
      }
      const session = new BridgeSession(s, store, () => undefined);
      try {
        const me = await session.get<{ email: string }>('/api/users/me');
        log(`switchboard bridge: signed in to ${s.baseUrl} as ${me.email} on "${s.deviceName}"`);
        store.close?.();
      } catch (e) {
        log(`switchboard bridge: ${e instanceof SignedOut ? 'signed out (the session was ended)' : e instanceof Error ? e.message : e}`);
        process.exit(e instanceof SignedOut ? EXIT_SIGNED_OUT : 69);
      }
      return;
    }
    case undefined:
    case 'run':
      break;
    default:
      log(`switchboard bridge: unknown command '${sub}'. Use: switchboard bridge [login | logout | status | mcp]`);
      process.exit(64);
  }

  const stored = (await store.load()) ?? (await signIn());
  let signedOut = false;
  const session = new BridgeSession(stored, store, () => {
    signedOut = true;
  });
  // Set when the person chose "Sign out" in the tray menu (exit 0) rather than the session ending elsewhere (exit 77).
  let signOutChosen = false;
  let tray: Tray | null = null;
  const finishSignedOut = async () => {
    const body = signOutChosen ? 'You signed out of Switchboard on this device.' : `This device's session ended.`;
    await desktop({ summary: 'Switchboard: signed out', body: `${body} Run “switchboard bridge” to sign in again.`, urgency: 'normal' });
    log(signOutChosen ? 'switchboard bridge: signed out (from the tray menu)' : 'switchboard bridge: signed out');
    tray?.stop();
    notifier.close();
    process.exit(signOutChosen ? 0 : EXIT_SIGNED_OUT);
  };
  try {
    const me = await session.get<{ id: string; email: string }>('/api/users/me');
    const projects = (await session.get<{ items: Array<{ id: string; name: string }> }>('/api/projects?limit=200')).items;
    const names = new Map(projects.map((p) => [p.id, p.name]));
    // The key local MCP clients use through `switchboard bridge mcp`, made now by the one process
    // that rotates the refresh token (a member who may not create keys still gets notifications).
    await ensureBridgeKey(session).catch((e) => {
      if (e instanceof SignedOut) throw e;
      log(`switchboard bridge: no service key for local MCP clients (${e instanceof Error ? e.message : e}); “switchboard bridge mcp” will try again`);
    });
    // The tray: its lines are read now, again after any event of the user's projects (a call,
    // a top-up, an alert: the balance moved) and at every session check.
    const dashboardUrl = `${session.baseUrl}/overview`;
    tray = new Tray(
      {
        openDashboard: () => {
          spawn(cfg.SWITCHBOARD_OPENER, [dashboardUrl], { detached: true, stdio: 'ignore' })
            .on('error', (e) => log(`switchboard bridge: could not run ${cfg.SWITCHBOARD_OPENER} (${e.message}); open ${dashboardUrl} in a browser`))
            .unref();
        },
        signOut: () => {
          if (signOutChosen) return;
          signOutChosen = true;
          void signOutHere(session, store, log).finally(() => (signedOut = true));
        },
      },
      log,
    );
    await tray.start().catch((e) => {
      log(`switchboard bridge: ${e instanceof Error ? e.message : e}; alerts still come as notifications`);
      tray = null;
    });
    let trayTimer: NodeJS.Timeout | null = null;
    const refreshTray = () => {
      if (!tray || trayTimer) return;
      trayTimer = setTimeout(() => {
        trayTimer = null;
        readTrayLines(session)
          .then((l) => tray?.update(l))
          .catch((e) => {
            if (!(e instanceof SignedOut)) log(`switchboard bridge: tray values not refreshed (${e instanceof Error ? e.message : e})`);
          });
      }, 250);
    };
    refreshTray();
    log(`switchboard bridge: signed in as ${me.email} on "${session.deviceName}"; watching ${projects.length} project(s)`);
    await desktop({ summary: 'Switchboard bridge is on', body: `Signed in as ${me.email}. Alerts of ${projects.length} project(s) will show here.`, urgency: 'normal' });
    // Tenant-wide alerts reach every stream: shown once.
    const seen = new Set<string>();
    const watch = new EventWatch(session, join(dir, 'bridge-events.json'), (f) => {
      refreshTray();
      if (!(ALERT_TYPES as readonly string[]).includes(f.type)) return;
      const key = `${f.type}|${f.at}|${JSON.stringify(f.payload)}`;
      if (seen.has(key)) return;
      seen.add(key);
      const a = alertFor(f, { userId: me.id, baseUrl: session.baseUrl, projectName: names.get(f.projectId) ?? 'a project' });
      if (a) void desktop(a);
    }, log);
    // The session is checked (and the access token rotated ahead of its expiry) on a timer too,
    // so a revocation shows even while no stream reconnects.
    const check = setInterval(() => {
      refreshTray();
      session.get('/api/users/me').catch((e) => {
        if (!(e instanceof SignedOut)) log(`switchboard bridge: session check failed: ${e instanceof Error ? e.message : e}`);
      });
    }, cfg.SWITCHBOARD_BRIDGE_CHECK_SECONDS * 1000);
    const stop = () => {
      clearInterval(check);
      watch.stop();
      tray?.stop();
      notifier.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Runs until signed out (a stream's reconnect or the session check finds the session gone).
    await new Promise<never>((_, reject) => {
      for (const p of projects) watch.watch(p.id).catch(reject);
      const poll = setInterval(() => {
        if (signedOut) {
          clearInterval(poll);
          reject(new SignedOut('signed out'));
        }
      }, 200);
    });
  } catch (e) {
    if (e instanceof SignedOut || signedOut) return finishSignedOut();
    throw e;
  }
}
