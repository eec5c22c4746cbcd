// Builds the web app (web/ → dist/web) unless nothing it is made of has changed since the last
// build: a SHA-256 over web/, the src/core modules and /api schemas the browser bundle imports, and the lock
// file is kept in dist/web/.build-stamp. `npm start`, `npm run serve` and `npm test` call it.
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'web');
const stampFile = join(out, '.build-stamp');

function files(dir: string, acc: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, acc);
    else if (!name.endsWith('.test.ts')) acc.push(p);
  }
  return acc;
}

/** The hash of every input of the build. */
export function webInputsHash(): string {
  // The bundle imports web/, the pure core, and the /api schemas its forms validate with.
  const api = files(join(root, 'src', 'http', 'api')).filter((f) => f.endsWith('schemas.ts') || f.endsWith('common.ts'));
  const inputs = [...files(join(root, 'web')), ...files(join(root, 'src', 'core')), ...api, join(root, 'package-lock.json')].sort();
  const h = createHash('sha256');
  for (const f of inputs) h.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

export const webIsBuilt = () => existsSync(join(out, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === webInputsHash();

/** Builds when stale; returns whether a build ran. */
export async function buildWeb(opts: { force?: boolean; quiet?: boolean } = {}): Promise<boolean> {
  const hash = webInputsHash();
  if (!opts.force && existsSync(join(out, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === hash) {
    if (!opts.quiet) console.log('web app: up to date (dist/web)');
    return false;
  }
  const { build } = await import('vite');
  const t0 = Date.now();
  // Built beside the live folder and swapped in at the end, so a second build running at the same
  // time (npm start and npm test in one checkout) never sees or serves a half-written app.
  const tmp = join(root, 'dist', `web.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  await build({ configFile: join(root, 'web', 'vite.config.ts'), logLevel: 'warn', build: { outDir: tmp, emptyOutDir: true } });
  // Compressed twins of every asset, served by @fastify/static's preCompressed when the browser
  // accepts them: no compression work per request.
  const assets = join(tmp, 'assets');
  for (const name of readdirSync(assets)) {
    if (!/\.(js|css|svg)$/.test(name)) continue;
    const raw = readFileSync(join(assets, name));
    writeFileSync(join(assets, `${name}.br`), brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(join(assets, `${name}.gz`), gzipSync(raw, { level: 9 }));
  }
  writeFileSync(join(tmp, '.build-stamp'), `${hash}\n`);
  const old = join(root, 'dist', `web.old-${process.pid}`);
  if (existsSync(out)) renameSync(out, old);
  renameSync(tmp, out);
  rmSync(old, { recursive: true, force: true });
  if (!opts.quiet) console.log(`web app: built into dist/web in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildWeb({ force: process.argv.includes('--force') });
}
