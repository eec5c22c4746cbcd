// Configuration (D11): nothing is needed for the default run; a bad value stops start-up with a
// message naming the variable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ConfigError, loadConfig } from './config.ts';

test('the defaults need no setting at all', () => {
  const c = loadConfig({});
  assert.equal(c.PORT, 8080);
  assert.equal(c.HOST, '127.0.0.1');
  assert.equal(c.DATA_DIR, './data');
  assert.equal(c.DATABASE_URL, undefined);
  assert.equal(c.RATE_LIMIT_CHAT_PER_MIN, 120);
  assert.equal(c.RATE_LIMIT_MESSAGES_PER_MIN, 60);
  assert.equal(c.RATE_LIMIT_GENERATE_PER_MIN, 60);
  assert.deepEqual(c.providers.openai, { apiKey: undefined, baseUrl: undefined });
});

test('every bad value is named, and empty strings mean unset', () => {
  assert.throws(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', OPENAI_BASE_URL: 'not a url' }), (e: Error) => {
    assert.ok(e instanceof ConfigError);
    for (const v of ['PORT', 'DATABASE_URL', 'OPENAI_BASE_URL']) assert.match(e.message, new RegExp(v));
    return true;
  });
  assert.throws(() => loadConfig({ PORT: '65536' }), /PORT/);
  assert.equal(loadConfig({ PORT: '65535' }).PORT, 65535);
  assert.equal(loadConfig({ PORT: '' }).PORT, 8080);
  assert.equal(loadConfig({ MISTRAL_API_KEY: 'k', MISTRAL_BASE_URL: 'http://127.0.0.1:1/v' }).providers.mistral.baseUrl, 'http://127.0.0.1:1/v');
});

test('the service refuses to start on a bad value, naming it', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    env: { ...process.env, PORT: 'eighty', DATABASE_URL: '' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 78);
  assert.match(r.stderr, /Invalid configuration/);
  assert.match(r.stderr, /PORT/);
});

test('RESERVATION_TIMEOUT_MS is refused below what the sweeper can honour, and sweeps follow it', async () => {
  assert.throws(() => loadConfig({ RESERVATION_TIMEOUT_MS: '500' }), /RESERVATION_TIMEOUT_MS: must be at least 1000/);
  assert.throws(() => loadConfig({ RESERVATION_TIMEOUT_MS: String(8 * 24 * 3_600_000) }), /RESERVATION_TIMEOUT_MS/);
  assert.equal(loadConfig({ RESERVATION_TIMEOUT_MS: '1000' }).RESERVATION_TIMEOUT_MS, 1000);
  const { sweepIntervalMs } = await import('./app/money/sweeper.ts');
  // A hold is released at most 1.25 × the timeout (+ 1 s) after it was taken.
  for (const t of [1_000, 4_000, 10_000, 60_000, 240_000, 600_000, 3_600_000]) {
    assert.ok(t + sweepIntervalMs(t) <= 1.25 * t + 1_000, `timeout ${t}`);
    assert.ok(sweepIntervalMs(t) >= 1_000 && sweepIntervalMs(t) <= 60_000);
  }
  assert.equal(sweepIntervalMs(600_000), 60_000);
});

test('SIM_URL must be an http URL; MAX_INFLIGHT_CALLS defaults to 256 and 0 turns shedding off', () => {
  assert.throws(() => loadConfig({ SIM_URL: 'ftp://x' }), /SIM_URL/);
  assert.equal(loadConfig({ SIM_URL: 'http://127.0.0.1:9090' }).SIM_URL, 'http://127.0.0.1:9090');
  assert.equal(loadConfig({}).MAX_INFLIGHT_CALLS, 256);
  assert.equal(loadConfig({ MAX_INFLIGHT_CALLS: '0' }).MAX_INFLIGHT_CALLS, 0);
  assert.throws(() => loadConfig({ MAX_INFLIGHT_CALLS: '-1' }), /MAX_INFLIGHT_CALLS/);
});

test('TRUST_PROXY is off by default and takes true or addresses, ranges and named ranges; anything else is refused', () => {
  assert.equal(loadConfig({}).TRUST_PROXY, false);
  assert.equal(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY, false);
  assert.equal(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY, true);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '127.0.0.1' }).TRUST_PROXY, ['127.0.0.1']);
  assert.deepEqual(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8' }).TRUST_PROXY, ['loopback', '10.0.0.0/8', 'fd00::/8']);
  for (const bad of ['haproxy', '10.0.0.0/33', '1.2.3.4/8/1', ',']) {
    assert.throws(() => loadConfig({ TRUST_PROXY: bad }), (e: Error) => e instanceof ConfigError && /TRUST_PROXY/.test(e.message) && /comma-separated list/.test(e.message), bad);
  }
});
