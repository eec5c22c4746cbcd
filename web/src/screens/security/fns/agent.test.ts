import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditLabel, describeAgent } from './agent.ts';

test('devices in words', () => {
  assert.equal(describeAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36'), 'Chrome on Linux');
  assert.equal(describeAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'), 'Safari on macOS');
  assert.equal(describeAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0'), 'Firefox on Windows');
  assert.equal(describeAgent('node'), 'Script or CLI');
  assert.equal(describeAgent(null), 'Unknown device');
});

test('audit events read as words, unknown ones too', () => {
  assert.equal(auditLabel('token_revoked'), 'Access token revoked');
  assert.equal(auditLabel('something_new'), 'something new');
});
