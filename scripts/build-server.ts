// Bundles src/ into dist/main.js (esbuild) unless nothing it is made of has changed since the last
// bundle: a SHA-256 over src/ (tests excluded), package.json and the lock file is kept in
// dist/.server-stamp, as scripts/build-web.ts does for the web app. `npm start`, `serve`, `worker`
// and `sweep` run it before starting, so N replicas started from one checkout do not rebuild the
// bundle N times, and none of them can load a half-written one: each build writes its files under
// its own names in dist/ and renames them into place (two builds at once produce the same bytes; the last rename wins).
//   node --import tsx scripts/build-server.ts            build when stale
//   node --import tsx scripts/build-server.ts --force    build anyway
//   node --import tsx scripts/build-server.ts --web      also the web app (when stale)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stampFile = join(dist, '.server-stamp');

function files(dir: string, acc: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, acc);
    else if (!name.endsWith('.test.ts')) acc.push(p);
  }
  return acc;
}

/** Files the bundle reads at run time, copied beside dist/main.js (assets first, then the code, then the stamp). */
const BUNDLE_ASSETS = ['src/core/routing/layer1-weights.bin'];

export function serverInputsHash(): string {
  const inputs = [...files(join(root, 'src')), join(root, 'package.json'), join(root, 'package-lock.json')].sort();
  const h = createHash('sha256');
  for (const f of inputs) h.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

export const serverIsBuilt = (hash = serverInputsHash()) =>
  existsSync(join(dist, 'main.js')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === hash;

/** Builds dist/main.js when stale (or forced); returns whether a build ran. */
export async function buildServer(opts: { force?: boolean } = {}): Promise<boolean> {
  const hash = serverInputsHash();
  if (!opts.force && serverIsBuilt(hash)) return false;
  const { build } = await import('esbuild');
  mkdirSync(dist, { recursive: true });
  // Built in memory for its final place (the source map's paths are relative to it), then written
  // beside it under this process's own names and renamed in.
  const out = await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node20',
    sourcemap: true,
    outfile: join(dist, 'main.js'),
    logLevel: 'warning',
    write: false,
  });
  const written: Array<[string, string]> = [];
  try {
    // Data the bundle reads at run time, beside it (src/infra/routing-weights.ts looks there).
    for (const asset of BUNDLE_ASSETS) {
      const final = join(dist, asset.split('/').pop()!);
      const tmp = `${final}.tmp-${process.pid}`;
      writeFileSync(tmp, readFileSync(join(root, asset)));
      written.push([tmp, final]);
    }
    for (const f of [...out.outputFiles].sort((a, b) => b.path.length - a.path.length)) {
      const tmp = `${f.path}.tmp-${process.pid}`;
      writeFileSync(tmp, f.contents);
      written.push([tmp, f.path]);
    }
    const stampTmp = `${stampFile}.tmp-${process.pid}`;
    writeFileSync(stampTmp, `${hash}\n`);
    written.push([stampTmp, stampFile]);
    // Assets first, main.js.map, main.js next, the stamp last: a stamp never vouches for an older bundle.
    for (const [tmp, final] of written) renameSync(tmp, final);
  } finally {
    for (const [tmp] of written) rmSync(tmp, { force: true });
  }
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = process.argv.includes('--force');
  await buildServer({ force });
  if (process.argv.includes('--web')) {
    const { buildWeb } = await import('./build-web.ts');
    await buildWeb({ quiet: true });
  }
}
