import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonForPg, textForPg } from './pg-text.ts';

test('jsonForPg replaces NUL and lone surrogates, and nothing else', () => {
  const doc = { a: 'x\u0000y', b: 'lone \ud800 and \udfff', c: 'pair 🌊 stays', d: 'text \\u0000 stays', e: 'tab\tand\u0001' };
  const out = JSON.parse(jsonForPg(JSON.stringify(doc)));
  assert.deepEqual(out, { a: 'x\ufffdy', b: 'lone \ufffd and \ufffd', c: 'pair 🌊 stays', d: 'text \\u0000 stays', e: 'tab\tand\u0001' });
  const plain = JSON.stringify({ a: 'nothing to do' });
  assert.equal(jsonForPg(plain), plain);
  // Three backslashes: an escaped backslash, then an escape.
  assert.equal(jsonForPg('"\\\\\\u0000"'), '"\\\\\\ufffd"');
});

test('textForPg replaces NUL', () => {
  assert.equal(textForPg('a\u0000b\u0000'), 'a\ufffdb\ufffd');
  assert.equal(textForPg('plain'), 'plain');
  assert.equal(textForPg(null), null);
});
