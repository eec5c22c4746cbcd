// One binary, several commands (ARCHITECTURE "Processes"):
//   start    serve + worker + simulated upstream in one process on the embedded defaults
//   serve    the HTTP server          worker   background jobs
//   sim      the simulated upstream   migrate  run migrations and exit
//   sweep    release orphaned wallet reservations now (the worker also does it every minute)
//   admin    `admin grant <email>` makes an existing user a platform admin (D13)
//   mcp      the stdio MCP server for MCP clients (D14), configured by SWITCHBOARD_URL and
//            SWITCHBOARD_API_KEY; it never loads the server's settings
//   advisory `advisory <file>` uploads a call history and prints what routing would have saved (D14)
//   bridge   the desktop bridge (D14): device sign-in, desktop notifications of the user's alerts
//   verify-export `verify-export <file> --key <file> | --key-url <url>` checks a ledger export
//            offline against the signed checkpoints (D17)
import { ConfigError, loadConfig, loadConnectorConfig, type Config } from './config.ts';
import { startRuntime } from './runtime/runtime.ts';
import { ensureDemo } from './runtime/demo.ts';
import { ensurePlatformAdmin, grantPlatformAdmin } from './app/identity/index.ts';
import { startSim } from './sim/index.ts';
import { PROVIDER_KEYS } from './core/providers.ts';
import { sweepReservations } from './app/money/index.ts';
import { startupFailure } from './startup-failure.ts';

let config: Config | null = null;
// Until the service runs, anything thrown (even from an event listener) ends start-up with one line.
const failStart = (e: unknown) => {
  console.error(startupFailure(e, config));
  if (config && ['debug', 'trace'].includes(config.LOG_LEVEL) && e instanceof Error) console.error(e.stack);
  process.exit(1);
};
process.on('uncaughtException', failStart);
process.on('unhandledRejection', failStart);
const started = () => {
  process.off('uncaughtException', failStart);
  process.off('unhandledRejection', failStart);
};

async function main(cmd: string): Promise<void> {
  let cfg: Config;
  try {
    // Each command loads only what it runs: the MCP SDK and the bridge stay out of a serving
    // process's memory (docs/performance.md, D16 RSS).
    if (cmd === 'mcp') return await (await import('./connectors/mcp/index.ts')).mcpCommand(loadConnectorConfig());
    if (cmd === 'bridge') return await (await import('./connectors/bridge/index.ts')).bridgeCommand(loadConnectorConfig(), process.argv[3]);
    if (cmd === 'advisory') return await (await import('./connectors/advisory/index.ts')).advisoryCommand(loadConnectorConfig(), process.argv.slice(3));
    // Offline: no settings, no database, no network unless --key-url is given.
    if (cmd === 'verify-export') return await (await import('./connectors/verify-export/index.ts')).verifyExportCommand(process.argv.slice(3));
    cfg = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
  config = cfg;
  switch (cmd) {
    case 'migrate': {
      const rt = await startRuntime(cfg, { http: false });
      await rt.close();
      console.log('migrations applied');
      return;
    }
    case 'sim': {
      // Any free port unless SIM_PORT is set; the URL to give `serve` is printed (SIM_URL).
      const sim = await startSim({ port: cfg.SIM_PORT, host: cfg.HOST });
      console.log(
        [
          `Simulated upstream (speaks the OpenAI, Anthropic and Gemini wires; every answer is labelled simulated) at ${sim.url}`,
          `  give it to serve/start:  SIM_URL=${sim.url} npm run serve`,
          `  (or one provider by hand: OPENAI_BASE_URL=${sim.url}/openai; the suffixes are /openai /anthropic /google /mistral /deepseek)`,
        ].join('\n'),
      );
      const stop = async () => {
        await sim.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return;
    }
    case 'sweep': {
      const rt = await startRuntime(cfg, { http: false });
      const r = await sweepReservations(rt.services);
      await rt.close();
      console.log(
        r.ran
          ? `released ${r.swept} reservation(s) older than ${cfg.RESERVATION_TIMEOUT_MS} ms (${r.releasedMicros} micros, ${r.tenants} tenant(s))`
          : 'another sweeper is running; nothing done',
      );
      return;
    }
    case 'serve':
    case 'start': {
      // `start` brings its own simulated upstream unless a real provider is configured (D11).
      // SIM_URL names a simulator already running (`npm run sim`), used when no provider is set.
      const anyProvider = PROVIDER_KEYS.some((p) => cfg.providers[p].apiKey || cfg.providers[p].baseUrl);
      const sim = cmd === 'start' && !anyProvider && !cfg.SIM_URL ? await startSim({ port: cfg.SIM_PORT, host: '127.0.0.1' }) : null;
      const simUrl = anyProvider ? null : (sim?.url ?? cfg.SIM_URL ?? null);
      const rt = await startRuntime(cfg, { http: true, worker: cmd === 'start', simUrl });
      const shutdown = async () => {
        await rt.close();
        await sim?.close();
        process.exit(0);
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
      if (cmd === 'start') {
        const demo = await ensureDemo(rt.services);
        const admin = await ensurePlatformAdmin(rt.services);
        console.log(
          [
            '',
            `Switchboard is running at ${rt.url}`,
            `  database:  ${rt.dbDescription}`,
            `  upstream:  ${simUrl ? `SIMULATED upstream at ${simUrl} (no real model is called)` : 'configured providers'}`,
            '',
            'Demo login',
            `  email:     ${demo.email}`,
            `  password:  ${demo.password ?? '(created on another machine; not stored here)'}`,
            `  dev key:   ${demo.key ?? '(created on another machine; not stored here)'}`,
            '',
            'Platform admin (admin console: /admin in the web app, with /admin/learning and /admin/webhooks)',
            `  email:     ${admin.email}`,
            `  password:  ${admin.password ?? '(created on another machine; not stored here)'}`,
            '',
            'Try it:',
            `  curl ${rt.url}/v1/chat/completions -H "Authorization: Bearer ${demo.key ?? '<your key>'}" \\`,
            `       -H 'content-type: application/json' -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello!"}]}'`,
            '',
          ].join('\n'),
        );
      } else {
        console.log(`Switchboard listening at ${rt.url}`);
        if (simUrl) console.log(`  upstream: SIMULATED upstream at ${simUrl} (SIM_URL; no real model is called)`);
        if (!anyProvider && !simUrl) {
          console.warn(
            'WARNING: no upstream is configured, so every proxy call answers 503. Set SIM_URL to a simulator ' +
              '(`npm run sim` prints it), or <PROVIDER>_API_KEY / <PROVIDER>_BASE_URL for real providers (README, Configuration).',
          );
        }
      }
      return;
    }
    case 'admin': {
      // switchboard admin grant <email>: make an existing user a platform admin (D13).
      const [sub, email] = process.argv.slice(3);
      if (sub !== 'grant' || !email) {
        console.error('usage: switchboard admin grant <email>');
        process.exit(64);
      }
      const rt = await startRuntime(cfg, { http: false });
      const r = await grantPlatformAdmin(rt.services.db, email);
      await rt.close();
      if (!r.granted) {
        console.error(`no user has the e-mail ${email}: they must sign up first, then run this again`);
        process.exit(1);
      }
      console.log(r.already ? `${email} is already a platform admin` : `${email} is now a platform admin`);
      return;
    }
    case 'worker': {
      const rt = await startRuntime(cfg, { http: false, worker: true });
      const shutdown = async () => {
        await rt.close();
        process.exit(0);
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
      console.log('Switchboard worker running');
      return;
    }
    default:
      console.error(`unknown command '${cmd}'. Commands: start | serve | worker | sim | migrate | sweep | mcp | bridge | advisory <file> | verify-export <file> | admin grant <email>`);
      process.exit(64);
  }
}

main(process.argv[2] ?? 'start').then(started, failStart);
