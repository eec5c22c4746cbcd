#!/usr/bin/env node
// The package's `bin` (D14): `switchboard <command>` runs the built bundle, dist/main.js, with the
// same commands as `node dist/main.js <command>` (start, serve, worker, sim, migrate, sweep, mcp).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!existsSync(main)) {
  // stderr: under `switchboard mcp` stdout belongs to the MCP protocol.
  process.stderr.write(`switchboard: ${main} is missing. Build it first with \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}\n`);
  process.exit(1);
}
await import(pathToFileURL(main).href);
