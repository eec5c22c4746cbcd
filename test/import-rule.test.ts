// CONVENTIONS 4: the core (and the wire formats) do no I/O. This rule is checked, not hoped for:
// any import of a module that reaches the network, the disk, a database or the environment from
// src/core or src/wire fails the suite, and so does a read of process.env there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PURE_DIRS = ['src/core', 'src/wire'];
/** Modules the pure layers may import: computation only. */
const ALLOWED = new Set(['node:crypto', 'node:zlib', 'canonicalize', 'zod', 'node:test', 'node:assert/strict', 'node:assert']);

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

test('src/core and src/wire import nothing that does I/O and never read process.env', () => {
  const offences: string[] = [];
  for (const f of PURE_DIRS.flatMap((d) => files(d))) {
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
      const spec = m[1];
      if (spec.startsWith('.')) {
        // A relative import must stay inside the pure layers: core only within core; wire within
        // wire or core. Anything else (app/, store/, infra/) would bring I/O in.
        const target = join(dirname(f), spec);
        const roots = f.startsWith('src/core') ? ['src/core/'] : ['src/core/', 'src/wire/'];
        if (!roots.some((r) => target.startsWith(r))) offences.push(`${f}: imports ${spec}`);
        continue;
      }
      if (!ALLOWED.has(spec)) offences.push(`${f}: imports ${spec}`);
    }
    for (const m of src.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) if (!m[1].startsWith('.')) offences.push(`${f}: dynamic import ${m[1]}`);
    if (/process\.env/.test(src)) offences.push(`${f}: reads process.env`);
  }
  assert.deepEqual(offences, []);
});

test('the rule itself catches an offending import', () => {
  const src = "import pg from 'pg';\nimport { x } from './y.ts';";
  const specs = [...src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
  assert.deepEqual(specs, ['pg', './y.ts']);
  assert.equal(ALLOWED.has('pg'), false);
});
