// `switchboard mcp`: the stdio MCP server (tier 2, D14). It checks its credentials before it
// speaks MCP at all, so a bad key is reported at start-up on stderr with a non-zero exit instead
// of as a failure of the first tool call. stdout carries protocol messages only: anything else
// written there would corrupt the client's JSON-RPC stream.
import { createMcpServer } from './server.ts';
import { ServiceClient, ServiceError, type Channel, type Credentials } from './service-client.ts';

/** The tile counts a connector as connected for 24 h after a heartbeat (D14); one every 10 minutes is plenty. */
export const HEARTBEAT_MS = 10 * 60_000;
export const MCP_VERSION = '0.1.0';

/** Exit codes (sysexits): a refused credential is EX_NOPERM, an unreachable service EX_UNAVAILABLE. */
export const EXIT_CREDENTIALS = 77;
export const EXIT_UNAVAILABLE = 69;

export interface McpOptions {
  baseUrl: string;
  creds: Credentials;
  channel: Channel;
  /** Where diagnostics go: stderr, never stdout. */
  log: (line: string) => void;
}

/** Start serving on stdin/stdout; resolves once connected. Throws ServiceError when the credentials or the service fail. */
export async function serveMcp(o: McpOptions): Promise<{ close(): Promise<void> }> {
  const client = new ServiceClient(o.baseUrl, o.creds, o.channel);
  const who = await client.hello();
  o.log(`switchboard mcp: connected to ${o.baseUrl} as project "${who.projectName}" (${who.environment}) of ${who.tenantName}`);
  const server = await createMcpServer(client, MCP_VERSION);
  const beat = setInterval(() => {
    client.hello().catch((e) => o.log(`switchboard mcp: heartbeat failed: ${e instanceof Error ? e.message : e}`));
  }, HEARTBEAT_MS);
  beat.unref();
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  await server.connect(new StdioServerTransport());
  return {
    async close() {
      clearInterval(beat);
      await server.close();
    },
  };
}

/** The `mcp` command: SWITCHBOARD_URL and SWITCHBOARD_API_KEY, then serve until stdin closes. */
export async function mcpCommand(cfg: { SWITCHBOARD_URL: string; SWITCHBOARD_API_KEY?: string }): Promise<void> {
  const log = (line: string) => process.stderr.write(line + '\n');
  // Belt and braces: a stray console.log anywhere in the bundle must not reach the protocol stream.
  console.log = console.info = console.debug = (...a: unknown[]) => log(a.map(String).join(' '));
  const key = cfg.SWITCHBOARD_API_KEY;
  if (!key) {
    log(`switchboard mcp: SWITCHBOARD_API_KEY is not set. Create a service key at ${cfg.SWITCHBOARD_URL}/developer-zone (or use the setup wizard of the MCP server tile at ${cfg.SWITCHBOARD_URL}/integrations) and put it in this server's env.`);
    process.exit(EXIT_CREDENTIALS);
  }
  try {
    const srv = await serveMcp({ baseUrl: cfg.SWITCHBOARD_URL, creds: { bearer: () => key }, channel: 'mcp', log });
    const stop = () => void srv.close().finally(() => process.exit(0));
    process.stdin.once('end', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (e) {
    if (e instanceof ServiceError) {
      log(`switchboard mcp: ${e.message}`);
      process.exit(e.status === 401 || e.status === 403 ? EXIT_CREDENTIALS : EXIT_UNAVAILABLE);
    }
    throw e;
  }
}
