// `npm run cluster`: the D17 topology on loopback (scripts/cluster/topology.ts): HAProxy in front
// of N `serve` replicas, separate workers, one PostgreSQL, one Redis and the simulated upstream,
// with the demo tenant seeded. Ctrl-C stops everything. docs/cluster.md maps it onto a real
// deployment.
//   CLUSTER_PORT      first port of the range (default 8500: HAProxy 8500, stats 8501, PostgreSQL
//                     8502, Redis 8503, simulator 8504, replicas 8510…)
//   CLUSTER_REPLICAS  serve replicas (default 2)     CLUSTER_WORKERS  workers (default 1)
//   CLUSTER_DIR       working folder (default ./data/cluster): logs, configuration, data
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/runtime/runtime.ts';
import { ensureDemo } from '../src/runtime/demo.ts';
import { ensurePlatformAdmin } from '../src/app/identity/index.ts';
import { buildServer } from './build-server.ts';
import { buildWeb } from './build-web.ts';
import { missingPackages, startCluster } from './cluster/topology.ts';

const int = (name: string, dflt: number, min: number, max: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return dflt;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) {
    console.error(`${name} must be a whole number from ${min} to ${max} (got '${raw}')`);
    process.exit(78);
  }
  return v;
};

const missing = missingPackages();
if (missing.length) {
  console.error(
    [
      'npm run cluster needs these Debian packages, which are missing:',
      ...missing.map((m) => `  ${m.what}  (package ${m.pkg})`),
      '',
      `Install them with:  sudo apt-get install ${missing.map((m) => m.pkg).join(' ')}`,
      'Only their programs are used (haproxy, initdb/pg_ctl, redis-server); no system service needs to run.',
    ].join('\n'),
  );
  process.exit(69);
}

const basePort = int('CLUSTER_PORT', 8500, 1024, 65000);
const replicas = int('CLUSTER_REPLICAS', 2, 1, 16);
const workers = int('CLUSTER_WORKERS', 1, 1, 8);
const dir = resolve(process.env.CLUSTER_DIR || join('data', 'cluster'));

// Ctrl-C during start-up: exit, and the topology's exit hook stops what had started.
const early = () => process.exit(130);
process.once('SIGINT', early);
process.once('SIGTERM', early);

await buildServer();
await buildWeb({ quiet: true });
const cluster = await startCluster({ basePort, dir, replicas, workers, log: (l) => console.log(`  ${l}`) });

// The demo tenant and the platform admin, as `npm start` seeds them, through the same use cases.
const cfg = loadConfig({ ...cluster.envFor({ DATA_DIR: join(dir, 'demo'), LOG_LEVEL: 'silent' }) } as Record<string, string>);
const rt = await startRuntime(cfg, { http: false });
const demo = await ensureDemo(rt.services);
const admin = await ensurePlatformAdmin(rt.services);
await rt.close();

console.log(
  [
    '',
    `Switchboard cluster is running at ${cluster.url}  (HAProxy; its stats page: ${cluster.statsUrl}/)`,
    `  replicas:  ${cluster.replicas.map((r) => `127.0.0.1:${r.port}`).join(', ')}   workers: ${cluster.workers.length}`,
    `  database:  PostgreSQL on 127.0.0.1:${new URL(cluster.databaseUrl).port}   Redis on 127.0.0.1:${new URL(cluster.redisUrl).port}`,
    `  upstream:  SIMULATED upstream at ${cluster.simUrl} (no real model is called)`,
    `  logs:      ${dir}/*.log`,
    '',
    'Demo login',
    `  email:     ${demo.email}`,
    `  password:  ${demo.password ?? '(created earlier; see data/cluster/demo/demo.json)'}`,
    `  dev key:   ${demo.key ?? '(created earlier; see data/cluster/demo/demo.json)'}`,
    `Platform admin: ${admin.email} / ${admin.password ?? '(created earlier)'}`,
    '',
    'Try it:',
    `  curl ${cluster.url}/v1/chat/completions -H "Authorization: Bearer ${demo.key ?? '<your key>'}" \\`,
    `       -H 'content-type: application/json' -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello!"}]}'`,
    '',
    'Ctrl-C stops every process (the data stays in the working folder).',
  ].join('\n'),
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping the cluster…');
  await cluster.stop();
  process.exit(0);
};
process.off('SIGINT', early);
process.off('SIGTERM', early);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// A process of the cluster that dies on its own is reported (the others keep running).
for (const p of [...cluster.replicas, ...cluster.workers, cluster.sim, cluster.haproxy, cluster.redis]) {
  void p.exited().then((code) => {
    if (!stopping) console.error(`${p.name} exited (${code}); its log: ${dir}/${p.name}.log`);
  });
}
