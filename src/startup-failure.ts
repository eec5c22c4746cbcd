// One line for a failed start (issue 14): what is wrong and what to do about it, never a stack.
// The causes a newcomer meets are named; anything else is reported by its own first line.
import type { Config } from './config.ts';
import { StartupError } from './store/embedded.ts';

interface SysError {
  code?: string;
  syscall?: string;
  path?: string;
  address?: string;
  port?: number;
  message?: string;
}

const PG_CONNECT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET']);

export function startupFailure(e: unknown, cfg: Config | null): string {
  const head = 'Switchboard cannot start:';
  if (e instanceof StartupError) return `${head} ${e.message}`;
  // The cause a wrapper (e.g. "migration failed") was thrown for carries the system error's code.
  let err = (e ?? {}) as SysError & { cause?: unknown };
  while (!err.code && err.cause && typeof err.cause === 'object') err = err.cause as SysError & { cause?: unknown };
  const code = err.code ?? '';
  const first = (String((e as SysError | null)?.message ?? e).split('\n')[0] ?? '').trim();
  const causeFirst = (String(err.message ?? '').split('\n')[0] ?? '').trim() || first;
  if (err.syscall === 'listen' || code === 'EADDRINUSE') {
    const where = `${cfg?.HOST ?? err.address ?? '127.0.0.1'}:${cfg?.PORT ?? err.port ?? '?'}`;
    if (code === 'EADDRINUSE') return `${head} ${where} is already in use; stop what listens there or set PORT to a free port.`;
    if (code === 'EACCES') return `${head} no permission to listen on ${where}; set PORT to a port above 1023.`;
    if (code === 'EADDRNOTAVAIL') return `${head} ${where} is not an address of this machine; set HOST (e.g. 127.0.0.1 or 0.0.0.0).`;
  }
  if (cfg?.DATABASE_URL && (PG_CONNECT.has(code) || /^(28|3D)/.test(code))) {
    let target = 'DATABASE_URL';
    try {
      const u = new URL(cfg.DATABASE_URL);
      target = `${u.hostname}:${u.port || 5432}${u.pathname}`;
    } catch {
      /* the URL was validated at start; keep the variable's name */
    }
    return `${head} cannot use the database at ${target} (${causeFirst}); check that it runs and DATABASE_URL is right, or unset DATABASE_URL to use the embedded PostgreSQL.`;
  }
  if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOSPC'].includes(code) && err.path) {
    return `${head} cannot write ${err.path} (${code}); set DATA_DIR to a directory this user can write.`;
  }
  return `${head} ${first || 'unknown error'}${code ? ` (${code})` : ''}. Set LOG_LEVEL=debug to print the details.`;
}
