// The services' log lines: one JSON object per event, filtered by LOG_LEVEL, errors with stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from './logger.ts';

test('one JSON line per event, with the fields at the top level; errors keep message and stack; LOG_LEVEL filters', () => {
  const out: string[] = [];
  const log = createLogger('warn', (l) => out.push(l));
  log.info({ a: 1 }, 'hidden below warn');
  log.warn({ deliveryId: 'd1', attempt: 2, amount: 5n }, 'webhook delivery attempt failed');
  log.error(new TypeError('boom'), 'unhandled error');
  assert.equal(out.length, 2);
  for (const l of out) assert.equal(l.split('\n').length, 2, 'exactly one line each');
  const w = JSON.parse(out[0]!);
  assert.equal(w.level, 40);
  assert.equal(w.msg, 'webhook delivery attempt failed');
  assert.equal(w.deliveryId, 'd1');
  assert.equal(w.amount, '5');
  assert.equal(typeof w.time, 'number');
  const e = JSON.parse(out[1]!);
  assert.equal(e.level, 50);
  assert.equal(e.err.type, 'TypeError');
  assert.equal(e.err.message, 'boom');
  assert.match(e.err.stack, /TypeError: boom\n\s+at /);
  const silent: string[] = [];
  createLogger('silent', (l) => silent.push(l)).error({ x: 1 }, 'nothing');
  assert.equal(silent.length, 0);
});

test('a message given alone is the line\'s msg (pino\'s form), not a field', () => {
  const out: string[] = [];
  createLogger('info', (l) => out.push(l)).warn('Redis is back: rate limits are shared across replicas again');
  const line = JSON.parse(out[0]!);
  assert.equal(line.msg, 'Redis is back: rate limits are shared across replicas again');
  assert.equal(line.value, undefined);
});
