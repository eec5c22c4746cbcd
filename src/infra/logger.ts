// The services' logger: one JSON line per event, the same shape as Fastify's request log (pino's
// numeric levels, `time`, `msg`, then the event's own fields), so a log collector reads both
// alike and a noisy event stays one line. LOG_LEVEL filters. Errors keep their message and stack.
import type { Logger } from '../app/shared/index.ts';

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
type Level = keyof typeof LEVELS | 'silent';

function errorFields(e: Error): Record<string, unknown> {
  const code = (e as { code?: unknown }).code;
  return { type: e.name, message: e.message, ...(code !== undefined ? { code } : {}), stack: e.stack };
}

const toConsole = (line: string, level: number) => (level >= LEVELS.warn ? process.stderr : process.stdout).write(line);

export function createLogger(level: Level, write: (line: string, level: number) => void = toConsole): Logger {
  const min = level === 'silent' ? Infinity : LEVELS[level];
  const at = (name: 'info' | 'warn' | 'error') => {
    const n = LEVELS[name];
    if (n < min) return () => {};
    return (obj: unknown, msg?: string) => {
      // pino's other form: a message alone is the message, not a field.
      if (typeof obj === 'string' && msg === undefined) {
        msg = obj;
        obj = undefined;
      }
      const fields = obj instanceof Error ? { err: errorFields(obj) } : obj && typeof obj === 'object' ? (obj as Record<string, unknown>) : { value: obj };
      const line = JSON.stringify({ level: n, time: Date.now(), pid: process.pid, msg: msg ?? '', ...fields }, (_k, v: unknown) =>
        typeof v === 'bigint' ? v.toString() : v instanceof Error ? errorFields(v) : v,
      );
      write(`${line}\n`, n);
    };
  };
  return { info: at('info'), warn: at('warn'), error: at('error') };
}
