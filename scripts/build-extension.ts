// `npm run build:extension`: the Chromium MV3 extension (extension/ → dist/extension, a folder to
// load unpacked) and its zip (dist/switchboard-extension-<version>.zip, for the Chrome Web Store
// or a managed install). The zip is deterministic: entries sorted, fixed timestamps, so the same
// sources give the same bytes.
import { build } from 'esbuild';
import { crc32, deflateRawSync } from 'node:zlib';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'extension');
export const EXTENSION_DIR = join(root, 'dist', 'extension');

/** A zip archive (PKWARE APPNOTE 6.3: local headers, data, central directory) of the given files. */
export function zip(entries: Array<{ name: string; data: Buffer }>): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  // 1980-01-01 00:00, the earliest DOS date: a fixed stamp keeps the archive reproducible.
  const dosTime = 0;
  const dosDate = (0 << 9) | (1 << 5) | 1;
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const name = Buffer.from(e.name, 'utf8');
    const packed = deflateRawSync(e.data, { level: 9 });
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt16LE(dosTime, 12);
    dir.writeUInt16LE(dosDate, 14);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(e.data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external attributes: a regular 0644 file
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, packed);
    central.push(dir, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}

function files(dir: string, acc: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, acc);
    else acc.push(p);
  }
  return acc;
}

/** Build the folder and the zip; returns their paths. */
export async function buildExtension(opts: { quiet?: boolean; outDir?: string; zipPath?: string } = {}): Promise<{ dir: string; zip: string }> {
  const out = opts.outDir ?? EXTENSION_DIR;
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const common = { bundle: true, target: 'chrome111', minify: false, legalComments: 'none' as const, logLevel: 'warning' as const, outdir: out, absWorkingDir: root };
  // The page-world script and the relay are classic scripts (content scripts cannot be modules);
  // the service worker and the two pages are modules.
  await build({ ...common, format: 'iife', entryPoints: { page: join(src, 'src', 'page.ts'), content: join(src, 'src', 'content.ts') } });
  await build({ ...common, format: 'esm', entryPoints: { background: join(src, 'src', 'background.ts'), options: join(src, 'src', 'options.ts'), popup: join(src, 'src', 'popup.ts') } });
  for (const f of files(join(src, 'static'))) copyFileSync(f, join(out, relative(join(src, 'static'), f)));
  const manifest = JSON.parse(readFileSync(join(src, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  manifest.version = version;
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

  const zipPath = opts.zipPath ?? join(root, 'dist', `switchboard-extension-${version}.zip`);
  const entries = files(out).map((f) => ({ name: relative(out, f).split('\\').join('/'), data: readFileSync(f) }));
  mkdirSync(dirname(zipPath), { recursive: true });
  writeFileSync(zipPath, zip(entries));
  if (!opts.quiet) console.log(`extension: ${relative(root, out)}/ (load unpacked) and ${relative(root, zipPath)}`);
  return { dir: out, zip: zipPath };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildExtension();
