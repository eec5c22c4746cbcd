// One error handler (CONVENTIONS 6): every thrown thing becomes an AppError from the catalogue;
// /api renders it as the envelope, the proxy scopes render it in the vendor's own body.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, appError } from '../core/errors.ts';
import type { Logger } from '../app/shared/index.ts';

export function toAppError(err: unknown, log?: Logger): AppError {
  if (err instanceof AppError) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const first = err.validation[0];
    const where = (first?.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const params = (first?.params ?? {}) as { keys?: string[] };
    const ctx = (err as { validationContext?: string }).validationContext ?? 'body';
    if (first?.keyword === 'unrecognized_keys' && params.keys?.length) {
      const field = [where, params.keys[0]].filter(Boolean).join('.');
      return appError('validation', `${ctx}: unknown field '${field}'`, { field });
    }
    const field = where || ctx;
    return appError('validation', `${ctx}${where ? `.${where}` : ''}: ${first?.message ?? 'invalid'}`, { field });
  }
  const fe = err as FastifyError;
  switch (fe?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return appError('body_too_large');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return appError('malformed_json');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return appError('unsupported_media_type');
  }
  if (fe instanceof SyntaxError && (fe as { statusCode?: number }).statusCode === 400) return appError('malformed_json');
  // Only client input is percent-decoded: a malformed escape is the request's fault.
  if (err instanceof URIError || fe?.code === 'FST_ERR_BAD_URL') return appError('validation', 'The URL holds a malformed percent-encoding (a % must be followed by two hex digits)', { field: 'url' });
  if (unstorableText(err)) return appError('validation', 'The request holds a character that cannot be stored (NUL or an unpaired surrogate)');
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return appError(fe.statusCode === 404 ? 'not_found' : fe.statusCode === 413 ? 'body_too_large' : 'validation', fe.message);
  }
  if (databaseUnreachable(err)) {
    log?.warn({ err: String((err as Error)?.message ?? err) }, 'database unreachable');
    return appError('unavailable', undefined, { headers: { 'retry-after': '1' } });
  }
  log?.error({ err }, 'unhandled error');
  return appError('internal');
}

/** PostgreSQL is down, restarting or unreachable (D17): the request can be retried; no 500. */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);
export function databaseUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && PG_UNAVAILABLE.has(e.code)) return true;
  return typeof e?.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/.test(e.message);
}

/**
 * PostgreSQL refused text it cannot hold: NUL in text (22021) or in jsonb (22P05), an unpaired
 * surrogate escape in jsonb (22P02 naming Unicode). JSON allows both, so the input was the client's.
 */
function unstorableText(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  if (e?.code === '22021' || e?.code === '22P05') return true;
  return e?.code === '22P02' && typeof e.message === 'string' && /unicode|surrogate/i.test(e.message);
}

export function sendApiError(reply: FastifyReply, e: AppError) {
  if (e.headers) reply.headers(e.headers);
  return reply.status(e.status).send({ success: false, error: e.message, code: e.code, ...(e.field ? { field: e.field } : {}) });
}

export function apiErrorHandler(log: Logger) {
  return (err: unknown, _req: FastifyRequest, reply: FastifyReply) => sendApiError(reply, toAppError(err, log));
}
