// Switchboard for bench/hop-cpu.ts: the same startRuntime as `npm start` (HTTP, rate limiter,
// key cache, Layers 1–2, the inline check, the wire, the upstream client, the stream pump), with
// the money path optionally replaced by no-I/O stand-ins (HOP_STUB_MONEY=1) so the Node CPU of
// everything *around* the money path can be measured alone, whatever state the money code is in.
// Nothing in src/ is changed: the stand-ins replace members of the service container.
//
//   DATABASE_URL=… SIM_URL=… HOP_STUB_MONEY=1 node --import tsx bench/hop-server.ts
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/runtime/runtime.ts';
import { ensureDemo } from '../src/runtime/demo.ts';
import { inProcessEnv } from './in-process-env.ts';
import type { CallStages } from '../src/app/calls/deps.ts';

const simUrl = process.env.SIM_URL!;
const env = inProcessEnv({ databaseUrl: process.env.DATABASE_URL!, dataDir: process.env.DATA_DIR!, simUrl });
const stub = process.env.HOP_STUB_MONEY === '1';
const rt = await startRuntime(loadConfig(env), { http: true, worker: process.env.HOP_WORKER === '1' });
const demo = await ensureDemo(rt.services);
if (stub) {
  const acc = rt.services.calls.stages;
  const ctxs = new Map<string, ReturnType<CallStages['loadContext']>>();
  rt.services.calls.stages = {
    ...acc,
    loadContext: (s, p) => {
      const k = p.keyId ?? p.projectId;
      let c = ctxs.get(k);
      if (!c) ctxs.set(k, (c = acc.loadContext(s, p)));
      return c;
    },
    admit: (async (_s: unknown, ctx: { tenantId: string }, callId: string, route: { worstMicros: bigint }) => ({ id: callId, callId, tenantId: ctx.tenantId, amountMicros: route.worstMicros })) as unknown as CallStages['admit'],
    settle: (async () => ({ settled: { savings: { tokensSavedMicros: 1234n }, debitedMicros: 0n }, qaSettled: true })) as unknown as CallStages['settle'],
    afterSettlement: () => {},
    fail: async () => {},
  };
}
console.log(`hop-server ready ${rt.url} ${demo.key}`);
const shutdown = async () => {
  await rt.close();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
if (process.env.HOP_MEM === '1') {
  const mb = (n: number) => (n / 1048576).toFixed(0);
  setInterval(() => {
    const m = process.memoryUsage();
    console.error(`mem rss ${mb(m.rss)} heapTotal ${mb(m.heapTotal)} heapUsed ${mb(m.heapUsed)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)}`);
  }, 2000).unref();
}
if (typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    const mb = (n: number) => (n / 1048576).toFixed(0);
    const a = process.memoryUsage();
    globalThis.gc!();
    const b = process.memoryUsage();
    console.error(`gc: heapUsed ${mb(a.heapUsed)} -> ${mb(b.heapUsed)}, heapTotal ${mb(a.heapTotal)} -> ${mb(b.heapTotal)}, rss ${mb(a.rss)} -> ${mb(b.rss)}`);
  });
}
