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
