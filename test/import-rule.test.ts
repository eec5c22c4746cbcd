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

// docs/layout.md: src/app is split into domain folders that never import each other in a circle
// (type imports included: a circle of types is still a circle of knowledge), and src/app reaches
// neither jobs/ (jobs are enqueued through Services.jobs), http/ nor the runtime. app/shared/ is
// the floor every domain stands on: it may name a domain's types (the Services container) but
// never import its code. Tests may drive anything, so *.test.ts files are outside these rules.
const APP = 'src/app/';
const SHARED = 'shared';
const OUTSIDE_APP = ['src/jobs/', 'src/http/', 'src/runtime/'];

/** Each relative import of a file: where it points and whether it is `import type`. */
function relativeImports(f: string): Array<{ target: string; typeOnly: boolean }> {
  const src = readFileSync(f, 'utf8');
  const out: Array<{ target: string; typeOnly: boolean }> = [];
  for (const m of src.matchAll(/(?:^|\n)\s*(import|export)(\s+type)?\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
    out.push({ target: join(dirname(f), m[3]), typeOnly: Boolean(m[2]) });
  }
  for (const m of src.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) out.push({ target: join(dirname(f), m[1]), typeOnly: false });
  return out;
}

const domainOf = (p: string) => (p.startsWith(APP) ? p.slice(APP.length).split('/')[0] : null);

/** A circle in a directed graph, as the list of nodes around it, or null. */
export function findCycle(edges: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (n: string): string[] | null => {
    if (state.get(n) === 'done') return null;
    if (state.get(n) === 'open') return [...path.slice(path.indexOf(n)), n];
    state.set(n, 'open');
    path.push(n);
    for (const m of edges.get(n) ?? []) {
      const c = visit(m);
      if (c) return c;
    }
    path.pop();
    state.set(n, 'done');
    return null;
  };
  for (const n of edges.keys()) {
    const c = visit(n);
    if (c) return c;
  }
  return null;
}

const appFiles = () => files('src/app').filter((f) => !f.endsWith('.test.ts'));

test('src/app imports nothing from jobs/, http/ or the runtime', () => {
  const offences: string[] = [];
  for (const f of appFiles()) {
    for (const i of relativeImports(f)) if (OUTSIDE_APP.some((d) => i.target.startsWith(d))) offences.push(`${f}: imports ${i.target}`);
  }
  assert.deepEqual(offences, []);
});

test('the domain folders of src/app import each other in no circle; app/shared imports only their types', () => {
  const edges = new Map<string, Set<string>>();
  const why = new Map<string, string>();
  const offences: string[] = [];
  for (const f of appFiles()) {
    const from = domainOf(f)!;
    for (const i of relativeImports(f)) {
      const to = domainOf(i.target);
      if (!to || to === from || to === SHARED) continue;
      if (from === SHARED) {
        if (!i.typeOnly) offences.push(`${f}: app/shared imports code from ${i.target}`);
        continue;
      }
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
      if (!why.has(`${from}>${to}`)) why.set(`${from}>${to}`, `${f} imports ${i.target}`);
    }
  }
  const cycle = findCycle(edges);
  if (cycle) offences.push(`circle ${cycle.join(' → ')}: ${cycle.slice(1).map((to, k) => why.get(`${cycle[k]}>${to}`)).join('; ')}`);
  assert.deepEqual(offences, []);
});

test('the circle check finds a circle, and passes a graph without one', () => {
  const g = (pairs: Array<[string, string]>) => {
    const m = new Map<string, Set<string>>();
    for (const [a, b] of pairs) (m.get(a) ?? m.set(a, new Set()).get(a)!).add(b);
    return m;
  };
  assert.deepEqual(findCycle(g([['money', 'events'], ['events', 'projects'], ['projects', 'money']])), ['money', 'events', 'projects', 'money']);
  assert.equal(findCycle(g([['calls', 'money'], ['calls', 'events'], ['money', 'events']])), null);
});

test('no file in src/app is over 400 lines (split by responsibility instead)', () => {
  const long = files('src/app')
    .map((f) => ({ f, lines: readFileSync(f, 'utf8').split('\n').length }))
    .filter((x) => x.lines > 400)
    .map((x) => `${x.f}: ${x.lines} lines`);
  assert.deepEqual(long, []);
});

// docs/layout.md, "Public surfaces": each domain folder has an index.ts that re-exports what the
// rest of the code uses, and nothing outside the domain reaches past it (other domains, http/,
// jobs/, runtime/, connectors/, main.ts, scripts/). Inside a domain, files import each other
// directly. The index re-exports only its own domain's files, so it adds no edge between domains.
const SCRIPTS = 'scripts';

/** Imports of `f` that reach into a domain of src/app other than f's own without its index.ts. */
export function pastTheIndex(f: string, imports: Array<{ target: string }>): string[] {
  const from = domainOf(f);
  const out: string[] = [];
  for (const i of imports) {
    const to = domainOf(i.target);
    if (!to || to === from) continue;
    if (i.target !== `${APP}${to}/index.ts`) out.push(`${f}: imports ${i.target} (use ${APP}${to}/index.ts)`);
  }
  return out;
}

test('outside a domain, src/app is reached only through the domain\'s index.ts', () => {
  const offences: string[] = [];
  const importers = [...files('src'), ...files(SCRIPTS)].filter((f) => !f.endsWith('.test.ts'));
  for (const f of importers) offences.push(...pastTheIndex(f, relativeImports(f)));
  assert.deepEqual(offences, []);
});

test('every domain of src/app has an index.ts that re-exports only its own files', () => {
  const offences: string[] = [];
  for (const d of readdirSync(APP.slice(0, -1))) {
    const dir = join(APP, d);
    if (!statSync(dir).isDirectory()) continue;
    const index = join(dir, 'index.ts');
    let src: string;
    try {
      src = readFileSync(index, 'utf8');
    } catch {
      offences.push(`${dir}: has no index.ts`);
      continue;
    }
    for (const i of relativeImports(index)) if (!i.target.startsWith(`${dir}/`)) offences.push(`${index}: re-exports ${i.target}, outside its domain`);
    if (/(?:^|\n)\s*export\s+(?:async\s+)?(?:function|const|let|class)\b/.test(src)) offences.push(`${index}: defines code; an index only re-exports`);
  }
  assert.deepEqual(offences, []);
});

test('the index rule catches an import past the index, and allows the index and imports within a domain', () => {
  assert.deepEqual(pastTheIndex('src/http/api/x.route.ts', [{ target: 'src/app/money/wallet-view.ts' }]), [
    'src/http/api/x.route.ts: imports src/app/money/wallet-view.ts (use src/app/money/index.ts)',
  ]);
  assert.deepEqual(pastTheIndex('src/app/insights/a.ts', [{ target: 'src/app/money/call-rollups.repo.ts' }]).length, 1);
  assert.deepEqual(pastTheIndex('src/http/api/x.route.ts', [{ target: 'src/app/money/index.ts' }, { target: 'src/core/errors.ts' }]), []);
  assert.deepEqual(pastTheIndex('src/app/money/topups.ts', [{ target: 'src/app/money/wallet.ts' }]), []);
});
