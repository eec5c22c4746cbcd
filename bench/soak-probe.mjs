// Loaded into every `serve` replica and `worker` by `npm run soak` (bench/soak.ts) through
// NODE_OPTIONS='--import …/soak-probe.mjs'. Every SOAK_PROBE_MS (default 5 s) it appends one JSON
// line to $DATA_DIR/soak-probe.jsonl with what only the process itself can see: its event-loop
// delay since the last sample (p50, p99, max), event-loop utilisation, V8 heap, the handles and
// requests keeping its loop alive (process.getActiveResourcesInfo(), by type) and its open file
// descriptors. Its timer is unref'd, so a short-lived process (the one-off `migrate`) is not kept
// alive by it. It changes nothing in the process it watches.
import { appendFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const dir = process.env.DATA_DIR;
if (dir) {
  const file = join(dir, 'soak-probe.jsonl');
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    /* written on the first sample if it can be */
  }
  const every = Number(process.env.SOAK_PROBE_MS) > 0 ? Number(process.env.SOAK_PROBE_MS) : 5_000;
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let elu = performance.eventLoopUtilization();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const d = performance.eventLoopUtilization(now, elu);
    elu = now;
    const handles = {};
    for (const t of process.getActiveResourcesInfo()) handles[t] = (handles[t] ?? 0) + 1;
    let fds = -1;
    try {
      fds = readdirSync('/proc/self/fd').length;
    } catch {
      /* not Linux: no fd count */
    }
    const m = process.memoryUsage();
    const line = {
      t: Date.now(),
      pid: process.pid,
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      lagP50: ms(h.percentile(50)),
      lagP99: ms(h.percentile(99)),
      lagMax: ms(h.max),
      elu: Math.round(d.utilization * 1000) / 1000,
      fds,
      handles,
    };
    h.reset();
    try {
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      /* the folder went away (the run is over) */
    }
  }, every);
  timer.unref();
}
