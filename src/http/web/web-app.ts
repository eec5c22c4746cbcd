// Serves the built web app (D13) on the same origin as /api: hashed assets under /assets/ (cached
// for a year), index.html for every app route (the router draws the screen), and index.html with
// status 404 for any other path, so the app shows its not-found page. HTML carries a strict
// Content-Security-Policy: scripts and styles only from this origin, no inline script.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../api/common.ts';
import { isAppRoute } from '../../core/web-routes.ts';

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // React Aria's press handling adds one fixed <style> ([data-react-aria-pressable]{touch-action:
  // pan-x pan-y pinch-zoom}); its hash admits exactly that text and no other inline style.
  "style-src 'self' 'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='",
  // Avatars are https links a member chose (spec §2 User.avatarUrl); nothing else loads images.
  "img-src 'self' data: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** dist/web from the repository root, whether this module runs from src/ (tsx) or dist/ (bundle). */
export function webDistDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'web');
    dir = resolve(dir, '..');
  }
  return resolve('dist', 'web');
}

export interface WebApp {
  /** Answers a GET the other routes did not claim; false when the path is not the web app's. */
  notFound(req: FastifyRequest, reply: FastifyReply): boolean;
}

export async function registerWebApp(app: App, root = webDistDir()): Promise<WebApp> {
  const indexPath = join(root, 'index.html');
  const built = existsSync(indexPath);
  // Read once: the build is immutable while the process runs.
  const index = built ? readFileSync(indexPath) : null;
  const sendIndex = (reply: FastifyReply, status: number) => {
    reply
      .status(status)
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8');
    if (index) return reply.send(index);
    return reply.send('<!doctype html><title>Switchboard</title><p>The web app is not built: run <code>npm run build</code>.</p>');
  };
  if (built) {
    await app.register(fastifyStatic, {
      root: join(root, 'assets'),
      prefix: '/assets/',
      immutable: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
      preCompressed: true,
    });
  }
  app.get('/', (req, reply) => sendIndex(reply, 200));
  return {
    notFound(req, reply) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const path = req.url.split('?')[0];
      // `/api` and `/v1` themselves (no trailing slash) belong to their surface too: an unknown path
      // there answers in that surface's JSON error shape, never with the web app's HTML page.
      if (['/api', '/v1', '/assets'].some((p) => path === p || path.startsWith(`${p}/`))) return false;
      sendIndex(reply, isAppRoute(path) ? 200 : 404);
      return true;
    },
  };
}
