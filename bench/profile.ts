// Reads a V8 .cpuprofile (written by `node --cpu-prof`) and ranks where the samples landed: self
// time per function and per component (our own folders, each npm package, node internals, GC).
// Self time of a sample is the time delta attributed to the node on top of the stack.
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileRow {
  name: string;
  where: string;
  selfMs: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Time not spent idle (every sample except `(idle)`). */
  busyMs: number;
  functions: ProfileRow[];
  components: ProfileRow[];
}

/** The component a script belongs to: an npm package, a folder of ours, node internals. */
export function componentOf(url: string, fn: string): string {
  if (!url) {
    if (fn === '(garbage collector)') return 'V8 garbage collector';
    if (fn === '(program)') return 'V8/native (program)';
    if (fn === '(idle)') return '(idle)';
    return `native: ${fn || '(anonymous)'}`;
  }
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return `npm: ${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (url.startsWith('node:')) {
    const mod = url.slice(5).split('/');
    return `node: ${mod[0] === 'internal' ? mod.slice(1, 3).join('/') : mod[0]}`;
  }
  const src = url.indexOf('/src/');
  if (src >= 0) {
    const parts = url.slice(src + 1).split('/');
    return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, -1).join('/') || parts[0];
  }
  const bench = url.indexOf('/bench/');
  if (bench >= 0) return 'bench';
  return url;
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  return url.replace(/^file:\/\//, '');
}

/**
 * `window` limits the summary to samples taken between two readings of process.hrtime (µs): V8
 * stamps samples with the same monotonic clock, so start-up (module loading) can be left out.
 */
export function summariseProfile(path: string, top = 25, window?: { fromUs: number; toUs: number }): ProfileSummary {
  const p = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  for (const n of p.nodes) byId.set(n.id, n);
  const selfUs = new Map<number, number>();
  let at = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i] ?? 0;
    if (window && (at < window.fromUs || at > window.toUs)) continue;
    const dt = p.timeDeltas[i + 1] ?? 0;
    selfUs.set(p.samples[i], (selfUs.get(p.samples[i]) ?? 0) + dt);
  }
  const fns = new Map<string, ProfileRow>();
  const comps = new Map<string, ProfileRow>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    total += us;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    const name = functionName || '(anonymous)';
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const f = fns.get(key) ?? { name, where, selfMs: 0, share: 0 };
    f.selfMs += us / 1000;
    fns.set(key, f);
    const comp = componentOf(url, functionName);
    const c = comps.get(comp) ?? { name: comp, where: '', selfMs: 0, share: 0 };
    c.selfMs += us / 1000;
    comps.set(comp, c);
  }
  const busyMs = (total - idle) / 1000;
  const rank = (m: Map<string, ProfileRow>) =>
    [...m.values()]
      .map((r) => ({ ...r, share: busyMs > 0 ? r.selfMs / busyMs : 0 }))
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top);
  return { totalMs: total / 1000, busyMs, functions: rank(fns), components: rank(comps) };
}

export function profileMarkdown(s: ProfileSummary, label: string, topFunctions = 25, topComponents = 15): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    `#### ${label}`,
    '',
    `${s.busyMs.toFixed(0)} ms of CPU sampled on the main thread (idle excluded).`,
    '',
    '| component | self ms | share |',
    '| --- | ---: | ---: |',
    ...s.components.slice(0, topComponents).map((c) => `| ${c.name} | ${c.selfMs.toFixed(0)} | ${pct(c.share)} |`),
    '',
    '| function | where | self ms | share |',
    '| --- | --- | ---: | ---: |',
    ...s.functions.slice(0, topFunctions).map((f) => `| \`${f.name.replace(/\|/g, '\\|')}\` | ${f.where || '—'} | ${f.selfMs.toFixed(0)} | ${pct(f.share)} |`),
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('profile.ts') && process.argv[2]) {
  const s = summariseProfile(process.argv[2], Number(process.argv[3] ?? 40));
  console.log(profileMarkdown(s, process.argv[2], Number(process.argv[3] ?? 40), 25));
}
