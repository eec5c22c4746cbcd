// Files that hold secrets or tokens (secrets.json, demo.json, the database password, e-mails with
// sign-in links): readable by their owner only, in directories made 0700 when we create them.
// `mode` on write applies only when a file is created, so an existing file is tightened too.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export async function writePrivateFile(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, data, { mode: 0o600 });
  await chmod(file, 0o600);
}

export function writePrivateFileSync(file: string, data: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, data, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** A private directory: 0700, also when it already existed with a wider mode. */
export async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/** Tightens a secret file left with a wider mode (by hand, or by an older version); absent is fine. */
export async function tightenPrivateFile(file: string): Promise<void> {
  await chmod(file, 0o600).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}
