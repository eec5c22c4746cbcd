// The floor for any Node hop: a bare pass-through proxy with no authentication, no routing, no
// accounting. node:http takes the request, buffers its body (as Switchboard does before parsing
// it), forwards it through a keep-alive undici Pool and pipes the upstream response back
// unchanged, streams included. Whatever Switchboard adds beyond this is the cost of its features;
// whatever this adds beyond a direct call is the cost of being a Node process in the path at all.
//
// With `commitDbUrl` (BARE_COMMIT_DB) it is the floor of D8 instead: before a non-streamed response
// is written, one row is inserted with a durable commit (one autocommit INSERT, one index, the WAL
// flushed to disk), which is the least any proxy that debits durably before answering must wait.
//
// Run as its own process by bench/run.ts:  BARE_PORT=… BARE_UPSTREAM=http://127.0.0.1:… node --import tsx bench/bare-proxy.ts
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length']);

function forwardable(h: IncomingHttpHeaders | Record<string, string | string[] | undefined>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

export async function startBareProxy(opts: { port: number; upstream: string; commitDbUrl?: string }): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new Pool(opts.upstream, { connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });
  // Loaded only for the floor, so the plain bare proxy's memory holds no database driver.
  const db = opts.commitDbUrl ? new (await import('pg')).default.Pool({ connectionString: opts.commitDbUrl, max: 16 }) : null;
  if (db) await db.query('create table if not exists bench_commit_floor (id bigint generated always as identity primary key, bytes int not null)');
  const INSERT = { name: 'bench_commit_floor', text: 'insert into bench_commit_floor (bytes) values ($1)' };
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const up = await pool.request({
          path: req.url ?? '/',
          method: (req.method ?? 'GET') as 'POST',
          headers: forwardable(req.headers) as Record<string, string>,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        });
        const streamed = String(up.headers['content-type'] ?? '').startsWith('text/event-stream');
        if (db && !streamed) {
          const body = Buffer.from(await up.body.arrayBuffer());
          await db.query({ ...INSERT, values: [body.length] });
          res.writeHead(up.statusCode, { ...forwardable(up.headers), 'content-length': String(body.length) });
          res.end(body);
          return;
        }
        res.writeHead(up.statusCode, forwardable(up.headers));
        await pipeline(up.body, res);
      } catch (e) {
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `bare proxy: ${(e as Error).message}` } }));
        } else res.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await pool.close();
      await db?.end();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const upstream = process.env.BARE_UPSTREAM;
  if (!upstream) {
    console.error('BARE_UPSTREAM (the origin to forward to) is required');
    process.exit(64);
  }
  const proxy = await startBareProxy({ port: Number(process.env.BARE_PORT ?? 0), upstream, commitDbUrl: process.env.BARE_COMMIT_DB || undefined });
  console.log(`bare proxy listening at ${proxy.url} -> ${upstream}`);
  const stop = async () => {
    await proxy.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
