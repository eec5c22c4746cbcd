// Usage read off raw chat-completions stream records (pass-through billing, D6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usageFromRecord } from './stream.ts';

test('usageFromRecord: chunks with "usage": null carry none; the usage chunk is read, however it is spaced', () => {
  const chunk = { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'the "usage": {' }, finish_reason: null }], usage: null };
  assert.equal(usageFromRecord({ data: JSON.stringify(chunk) }), undefined);
  const last = { id: 'c1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 12, completion_tokens: 34, total_tokens: 46 } };
  assert.deepEqual(usageFromRecord({ data: JSON.stringify(last) }), usageFromRecord({ data: JSON.stringify(last, null, 2) }));
  assert.equal(usageFromRecord({ data: JSON.stringify(last) })?.outputTokens, 34);
  assert.equal(usageFromRecord({ data: JSON.stringify(last) })?.inputTokens, 12);
  assert.equal(usageFromRecord({ data: '[DONE]' }), undefined);
});
