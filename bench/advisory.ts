// The advisory import benchmark (D14 tier 6, issue 17 item 7): a 100,000-row NDJSON history of the
// three wire shapes is uploaded to a fresh Switchboard process (`dist/main.js start`, as `npm
// start` runs it: serve + worker) and processed to the end. Reported: upload time, time to the
// finished report, rows per second, and the process's resident memory sampled every 50 ms during
// the import (targets: under 60 s and under 200 MB). A report, not a timed test.
//
// Part of `npm run bench` (bench/run.ts). On its own: `node --import tsx bench/advisory.ts`
// (embedded PostgreSQL, or a fresh database on DATABASE_URL's server when it is set).
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../src/store/embedded.ts';
import { peakRssMb, rssMb } from './proc.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ADVISORY_ROWS = Number(process.env.BENCH_ADVISORY_ROWS) > 0 ? Number(process.env.BENCH_ADVISORY_ROWS) : 100_000;

export interface AdvisoryBench {
  rows: number;
  fileMb: number;
  uploadMs: number;
  totalMs: number;
  rowsPerSecond: number;
  baselineRssMb: number;
  peakRssDuringMb: number;
  peakRssUploadMb: number;
  peakRssProcessMb: number;
  malformedRows: number;
  processedRows: number;
}

const TOPICS = [
  (i: number) => `Write a Python function that merges ${i % 9 + 2} sorted lists and add unit tests for the empty case.`,
  (i: number) => `Translate into German: "Order #${i} ships on Monday; please confirm the delivery address."`,
  (i: number) => `Summarise in two sentences: the quarterly report shows revenue up ${i % 30}% while costs stayed flat across regions.`,
  (i: number) => `Extract the invoice number, date and total as JSON from: Invoice INV-${i} dated 2026-03-${(i % 28) + 1} total EUR ${i % 1000}.50`,
  (i: number) => `Hi! Can you suggest a name for a cafe that serves ${['waffles', 'ramen', 'tacos'][i % 3]}?`,
  (i: number) => `Prove that the sum of the first ${i % 50 + 3} odd numbers is a perfect square, step by step.`,
];

/** One NDJSON line of a logged call; the shape rotates through the three wires. */
export function line(i: number): string {
  const prompt = TOPICS[i % TOPICS.length](i);
  const tin = 40 + (i % 400);
  const tout = 20 + (i % 700);
  switch (i % 3) {
    case 0:
      return JSON.stringify({
        timestamp: new Date(Date.UTC(2026, 9, 1) + i * 1000).toISOString(),
        request: { model: 'gpt-4o', messages: [{ role: 'user', content: prompt }] },
        response: { id: `chatcmpl-${i}`, object: 'chat.completion', model: 'gpt-4o-2024-08-06', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: tin, completion_tokens: tout } },
      });
    case 1:
      return JSON.stringify({
        request: { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: prompt }] },
        response: { id: `msg_${i}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: tin, output_tokens: tout } },
      });
    default:
      return JSON.stringify({
        model: 'gemini-2.5-pro',
        request: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
        response: { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }], modelVersion: 'gemini-2.5-pro', usageMetadata: { promptTokenCount: tin, candidatesTokenCount: tout } },
      });
  }
}

async function writeFile(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  for (let i = 1; i <= rows; i++) {
    const l = `${line(i)}\n`;
    bytes += Buffer.byteLength(l);
    if (!out.write(l)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
  return bytes;
}

async function json(url: string, init: RequestInit & { duplex?: 'half' } = {}): Promise<any> {
  const r = await fetch(url, init);
  const body = await r.json();
  if (!r.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${r.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.data;
}

/** Start `dist/main.js start` on `databaseUrl`, import the file, stop it. */
export async function runAdvisoryBench(databaseUrl: string, log: (l: string) => void): Promise<AdvisoryBench> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-advisory-'));
  try {
    const file = join(dir, 'history.ndjson');
    const bytes = await writeFile(file, ADVISORY_ROWS);
    log(`bench advisory: ${ADVISORY_ROWS.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB`);
    execFileSync('npm', ['run', 'build:server', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', JWT_SECRET: randomBytes(32).toString('hex'), LEDGER_SECRET: randomBytes(32).toString('hex') };
    for (const k of Object.keys(env)) if (/^(REDIS_URL|PUBLIC_URL|SIM_PORT)$/.test(k)) delete env[k];
    const proc = spawn(process.execPath, ['--max-old-space-size=1024', 'dist/main.js', 'start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    try {
      const url = await new Promise<string>((res, rej) => {
        let buf = '';
        const t = setTimeout(() => rej(new Error(`switchboard did not start:\n${buf}`)), 90_000);
        const on = (d: Buffer) => {
          buf += d.toString();
          const m = /Switchboard is running at (http:\/\/\S+)/.exec(buf);
          if (m) {
            clearTimeout(t);
            res(m[1]);
          }
        };
        proc.stdout!.on('data', on);
        proc.stderr!.on('data', on);
        proc.once('exit', (c) => rej(new Error(`switchboard exited with ${c}:\n${buf}`)));
      });
      const signup = await json(`${url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `advisory-bench-${randomBytes(3).toString('hex')}@example.test`, password: 'correct horse battery staple', name: 'Bench', tenantName: 'Advisory bench' }),
      });
      const token: string = signup.tokens.accessToken;
      const auth = { authorization: `Bearer ${token}` };
      await json(`${url}/api/tenant/baseline`, { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ providerKey: 'openai' }) });
      await new Promise((r) => setTimeout(r, 1000)); // let start-up work settle before the baseline
      const baselineRssMb = rssMb(proc.pid!);
      let peak = baselineRssMb;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(proc.pid!));
      }, 50);
      const t0 = performance.now();
      const up = await json(`${url}/api/advisory/imports?filename=history.ndjson`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-ndjson' },
        body: Readable.toWeb(createReadStream(file)) as ReadableStream,
        duplex: 'half',
      });
      const uploadMs = performance.now() - t0;
      const peakUploadMb = peak;
      log(`bench advisory: uploaded in ${(uploadMs / 1000).toFixed(1)} s; processing`);
      let report: any;
      for (;;) {
        report = await json(`${url}/api/advisory/imports/${up.id}?limit=1`, { headers: auth });
        if (report.status === 'done' || report.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const totalMs = performance.now() - t0;
      clearInterval(sampler);
      if (report.status !== 'done') throw new Error(`advisory import failed: ${report.error}`);
      return {
        rows: ADVISORY_ROWS,
        fileMb: bytes / 1e6,
        uploadMs,
        totalMs,
        rowsPerSecond: ADVISORY_ROWS / (totalMs / 1000),
        baselineRssMb,
        peakRssDuringMb: peak,
        peakRssUploadMb: peakUploadMb,
        peakRssProcessMb: peakRssMb(proc.pid!),
        malformedRows: report.progress.malformedRows,
        processedRows: report.progress.processedRows,
      };
    } finally {
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function advisoryMarkdown(a: AdvisoryBench): string {
  const ok = (v: boolean) => (v ? 'met' : '**missed**');
  return [
    '## Advisory import (D14 tier 6)',
    '',
    `A ${a.rows.toLocaleString('en-US')}-row NDJSON history (${a.fileMb.toFixed(1)} MB, the three wire shapes in turn) uploaded as a stream to a fresh \`dist/main.js start\` (serve + worker), then classified (Layer 1), priced three ways and reported.`,
    '',
    '| measure | value | target |',
    '| --- | --- | --- |',
    `| upload (streamed, rows written) | ${(a.uploadMs / 1000).toFixed(1)} s | |`,
    `| upload → finished report | ${(a.totalMs / 1000).toFixed(1)} s | under 60 s: ${ok(a.totalMs < 60_000)} |`,
    `| rows per second, end to end | ${Math.round(a.rowsPerSecond).toLocaleString('en-US')} | |`,
    `| process RSS before the import | ${a.baselineRssMb.toFixed(0)} MB | |`,
    `| process RSS, peak during the import | ${a.peakRssDuringMb.toFixed(0)} MB (upload ${a.peakRssUploadMb.toFixed(0)} MB) | under 200 MB: ${ok(a.peakRssDuringMb < 200)} |`,
    `| rows classified / malformed | ${a.processedRows.toLocaleString('en-US')} / ${a.malformedRows} | all / 0 |`,
    '',
  ].join('\n');
}

/** The section of `npm run bench`: a fresh database on the server of `adminUrl`, dropped afterwards. */
export async function runAdvisorySection(adminUrl: string, log: (l: string) => void): Promise<string> {
  const name = `sb_bench_advisory_${process.pid}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`create database ${name}`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    try {
      return advisoryMarkdown(await runAdvisoryBench(u.toString(), log));
    } finally {
      await c.query(`drop database if exists ${name} with (force)`);
    }
  } finally {
    await c.end();
  }
}

// On its own (`npm run bench:advisory`): beside DATABASE_URL when it is set, else on an embedded PostgreSQL.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const log = (l: string) => process.stderr.write(`${l}\n`);
  (async () => {
    if (process.env.DATABASE_URL) {
      process.stdout.write(`${await runAdvisorySection(process.env.DATABASE_URL, log)}\n`);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'sb-bench-advisory-pg-'));
    chmodSync(dir, 0o755);
    const db = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), persistent: false, database: 'switchboard' });
    try {
      process.stdout.write(`${await runAdvisorySection(db.url.replace(/\/switchboard(\?|$)/, '/postgres$1'), log)}\n`);
    } finally {
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  })().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
