// JSON bodies on /api: an empty body sent with `Content-Type: application/json` is no body, as if
// the header were absent. Many clients set the header on every request, and the spec gives several
// POSTs no request body at all (replay, rotate, logout). Anything else parses with Fastify's own
// JSON parser (prototype-poisoning protection included), so a malformed body is still a 400.
import type { App } from '../api/common.ts';

export function acceptEmptyJsonBodies(app: App): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parse(req, text, done);
  });
}
