// The bridge's MCP server for local MCP clients (D14, tier 4): `switchboard bridge mcp` is what a
// desktop MCP client (Claude Desktop, Cursor, VS Code) launches instead of `switchboard mcp`, with
// no key to paste. Its credential is the bridge's own: on the first need, the signed-in session
// creates a service key named after the device ("Desktop bridge (<device>)", in the default
// project, environment production) and keeps it with the sign-in (OS keychain or 0600 file). Calls
// name themselves `x-service-channel: bridge`, so they land in the call log and ledger on channel
// `bridge`. Why a minted key and not the session's access token: see docs/decisions.md,
// "Desktop bridge: MCP for local clients".
import { serveMcp, EXIT_CREDENTIALS, EXIT_UNAVAILABLE } from '../mcp/index.ts';
import { ServiceError } from '../mcp/service-client.ts';
import { BridgeSession, SignedOut } from './bridge-session.ts';
import type { CredentialStore } from './credential-store.ts';

export const EXIT_SIGNED_OUT = 77;

/** The bridge's service key: the stored one, or a new one created by the signed-in session. */
export async function ensureBridgeKey(session: BridgeSession, fresh = false): Promise<string> {
  const have = session.signInState;
  if (have.serviceKey && !fresh) return have.serviceKey;
  const r = await session.send<{ key: string; record: { id: string } }>('POST', '/api/keys', { name: `Desktop bridge (${session.deviceName})`.slice(0, 120), environment: 'production', endsWithSession: true });
  await session.saveServiceKey({ key: r.key, id: r.record.id });
  return r.key;
}

/** On sign-out from this machine: the bridge's key ends with it (best effort: the session may be gone). */
export async function revokeBridgeKey(session: BridgeSession): Promise<void> {
  const id = session.signInState.serviceKeyId;
  if (!id) return;
  await session.send('DELETE', `/api/keys/${id}`);
}

export async function bridgeMcpCommand(store: CredentialStore): Promise<void> {
  const log = (line: string) => process.stderr.write(line + '\n');
  // stdout is the protocol stream: nothing else may reach it.
  console.log = console.info = console.debug = (...a: unknown[]) => log(a.map(String).join(' '));
  const stored = await store.load();
  if (!stored) {
    log('switchboard bridge mcp: this machine is not signed in. Run “switchboard bridge login” (or start “switchboard bridge”) once, then restart your MCP client.');
    process.exit(EXIT_SIGNED_OUT);
  }
  const session = new BridgeSession(stored, store, () => undefined);
  const start = async (fresh: boolean) => {
    const key = await ensureBridgeKey(session, fresh);
    return serveMcp({ baseUrl: session.baseUrl, creds: { bearer: () => key }, channel: 'bridge', log });
  };
  try {
    let srv;
    try {
      srv = await start(false);
    } catch (e) {
      // The stored key was revoked (on the keys page): make a new one with the session, once.
      if (!(e instanceof ServiceError && e.status === 401)) throw e;
      log('switchboard bridge mcp: the bridge’s service key was refused; creating a new one with this device’s sign-in');
      srv = await start(true);
    }
    const stop = () => void srv.close().finally(() => process.exit(0));
    process.stdin.once('end', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (e) {
    if (e instanceof SignedOut) {
      log('switchboard bridge mcp: this device’s session has ended. Run “switchboard bridge login” to sign in again.');
      process.exit(EXIT_SIGNED_OUT);
    }
    if (e instanceof ServiceError) {
      log(`switchboard bridge mcp: ${e.message}`);
      process.exit(e.status === 401 || e.status === 403 ? EXIT_CREDENTIALS : EXIT_UNAVAILABLE);
    }
    const msg = e instanceof Error ? e.message : String(e);
    log(/\/api\/keys: /.test(msg) ? `switchboard bridge mcp: could not create the bridge’s service key (${msg.replace(/^\/api\/keys: /, '')}). Creating keys needs an admin of the account; ask one, or use “switchboard mcp” with a key from the developer zone.` : `switchboard bridge mcp: ${msg}`);
    process.exit(EXIT_UNAVAILABLE);
  }
}
