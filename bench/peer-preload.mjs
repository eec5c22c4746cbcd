// Loaded with `node --import` before the peer of D16 (Portkey's open-source gateway, the npm
// package @portkey-ai/gateway, started by bench/run.ts). It changes nothing in the peer's code;
// it adjusts the process around it, for two reasons:
//
// 1. Loopback only. The gateway's node entry calls serve({ port }) without a hostname, which
//    listens on every interface; the benchmark's servers listen on 127.0.0.1 alone.
// 2. Streams. Version 1.15.2 on Node answers every streamed chat completion with a 500
//    ("TypeError: immutable" in its response service): it wraps the upstream's fetch Response in a
//    new Response that keeps the upstream's immutable Headers, then appends its own headers to
//    them (upstream issues #1389 and #1550). Each upstream response is handed to it with a mutable
//    copy of its headers instead: one Headers copy per call, a cost the peer pays and would not
//    pay with the fix, so it can only make the peer look slower, never faster.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' && (args[1] === undefined || typeof args[1] === 'function')) args.splice(1, args[1] === undefined ? 1 : 0, '127.0.0.1');
  else if (args[0] && typeof args[0] === 'object' && args[0].port !== undefined && args[0].host === undefined) args[0] = { ...args[0], host: '127.0.0.1' };
  return listen.apply(this, args);
};

const upstreamFetch = globalThis.fetch;
const GlobalResponse = globalThis.Response;
globalThis.fetch = async (input, init) => {
  const r = await upstreamFetch(input, init);
  return new GlobalResponse(r.body, { status: r.status, statusText: r.statusText, headers: new Headers(r.headers) });
};
