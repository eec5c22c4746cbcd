// The generate-content shape (D6). Generic drop-in: POST /v1/generate/generateContent and
// /v1/generate/streamGenerateContent (model in the body's `model` or `?model=`), and the same
// under /v1/generate/v1beta/models/<model>:<method> so the official SDK works with
// baseUrl <service>/v1/generate. Vendor-prefixed: /v1/generate-proxy/v1beta/models/<model>:<method>.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../../core/errors.ts';
import type { RouteModule } from '../api/common.ts';
import type { Services } from '../../app/shared/index.ts';
import { handleCall } from './scope.ts';

function modelAndMethod(rest: string): { model: string; stream: boolean } {
  // The router has decoded the path once; a second decode of a literal % (from %25) must not throw.
  let path = rest;
  try {
    path = decodeURIComponent(rest);
  } catch {
    /* keep the router's decoding */
  }
  const m = /^([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (!m) throw appError('not_found', `Unknown method '${rest}'; expected <model>:generateContent or <model>:streamGenerateContent`);
  return { model: m[1], stream: m[2] === 'streamGenerateContent' };
}

function viaPath(s: Services, vendorLocked: boolean) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    const { model, stream } = modelAndMethod((req.params as { '*': string })['*']);
    return handleCall(s, req, reply, { shape: 'gemini', surface: 'generate', vendorLocked, parseCtx: { model, stream } });
  };
}

function viaBody(s: Services, stream: boolean) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as { model?: string };
    const b = req.body as { model?: unknown } | null;
    const model = typeof q.model === 'string' ? q.model : typeof b?.model === 'string' ? b.model : 'auto';
    return handleCall(s, req, reply, { shape: 'gemini', surface: 'generate', vendorLocked: false, parseCtx: { model, stream } });
  };
}

const route: RouteModule = (app, s) => {
  app.post('/v1/generate/generateContent', { config: { shape: 'gemini' } }, viaBody(s, false));
  app.post('/v1/generate/streamGenerateContent', { config: { shape: 'gemini' } }, viaBody(s, true));
  app.post('/v1/generate/v1beta/models/*', { config: { shape: 'gemini' } }, viaPath(s, false));
  app.post('/v1/generate-proxy/v1beta/models/*', { config: { shape: 'gemini' } }, viaPath(s, true));
};
export default route;
