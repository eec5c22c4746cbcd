import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { CanonicalRequest, Message } from '../canonical/types.ts';
import { classifyByRules as classify, HEAD_WINDOW, SCAN_BUDGET, SYSTEM_WINDOW, TAIL_WINDOW } from './classify-rules.ts';
import { TASK_FAMILIES } from './vocabulary.ts';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const req = (text: string, over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  shape: 'openai',
  model: 'auto',
  messages: [user(text)],
  stream: false,
  ...over,
});
const family = (text: string, over?: Partial<CanonicalRequest>) => classify(req(text, over)).taskFamily;
const complexity = (text: string, over?: Partial<CanonicalRequest>) => classify(req(text, over)).complexity;

describe('classifyByRules (the pre-D18 baseline): task family', () => {
  const cases: Array<[string, string]> = [
    ['Fix this bug in my TypeScript function:\n```ts\nfunction add(a: number, b: number) { return a - b; }\n```', 'coding'],
    ['Design a scalable distributed architecture with microservices and a database, discuss tradeoffs.', 'coding'],
    ['Write a short poem about autumn.', 'writing'],
    ['Draft an email to my landlord about the broken heating.', 'writing'],
    ['Compare the pros and cons of nuclear vs solar energy, with sources.', 'research'],
    ['Given this CSV, compute the median and correlation between columns a and b:\na,b\n1,2\n3,4', 'data-analysis'],
    ['Prove that the square root of 2 is irrational.', 'math'],
    ['Solve 3x^2 + 2x - 5 = 0', 'math'],
    ['Summarize this meeting transcript in three bullet points.', 'summarization'],
    ['Translate into French: the weather is nice today.', 'translation'],
    ['Extract the invoice number, date and total from this receipt.', 'extraction'],
    ['Hi there! How are you today?', 'conversation'],
    ['What is the capital of France?', 'conversation'],
    ['', 'conversation'],
  ];
  for (const [text, expected] of cases) {
    test(`${expected}: ${JSON.stringify(text.slice(0, 50))}`, () => assert.equal(family(text), expected));
  }

  test('a requested JSON response format pulls towards extraction', () => {
    assert.equal(family('List the people mentioned: Ann met Bob.', { responseFormat: { type: 'json' } }), 'extraction');
  });

  test('code structure alone (no keywords) reads as coding', () => {
    const src = '```\nconst x = items.filter((i) => i.ok);\nfor (const y of x) { total += y.value; }\n```\n```\nother();\n```';
    assert.equal(family(src), 'coding');
  });

  test('keywords are case-insensitive whole words', () => {
    assert.equal(family('TRANSLATE THIS INTO SPANISH PLEASE'), 'translation');
    // "codec" and "mysqld" must not count as "code" and "sql".
    const f = classify(req('The codec setting of mysqld')).features;
    assert.equal(f.keywordHits.coding, 0);
  });

  test('bigram keywords need adjacent words within one sentence', () => {
    assert.ok(classify(req('Please review my pull request')).features.keywordHits.coding >= 4);
    assert.equal(classify(req('Give it a pull. Request denied')).features.keywordHits.coding, 0);
  });

  test('the newest user turn counts double', () => {
    const one = classify(req('translate')).features.keywordHits.translation;
    const older = classify({
      shape: 'openai',
      model: 'auto',
      stream: false,
      messages: [user('translate'), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, user('thanks')],
    }).features.keywordHits.translation;
    assert.equal(one, 2 * older);
  });
});

describe('classifyByRules (the pre-D18 baseline): complexity', () => {
  test('short lookups are low', () => {
    assert.equal(complexity('What is the capital of France?'), 'low');
    assert.equal(complexity('Answer in one word: is water wet?'), 'low');
  });

  test('a page of output or several steps is medium', () => {
    assert.equal(complexity('Write a detailed essay on the history of the printing press.'), 'medium');
    assert.equal(complexity('Rewrite this paragraph.', { maxTokens: 1500 }), 'medium');
  });

  test('proofs, design and multi-part work are high', () => {
    assert.equal(complexity('Prove rigorously, step by step, that there are infinitely many primes; give a detailed proof.'), 'high');
    assert.equal(
      complexity('Design a scalable distributed architecture for a chat system, covering edge cases and tradeoffs.'),
      'high',
    );
  });

  test('long context alone is high', () => {
    assert.equal(complexity('hello '.repeat(5000)), 'high'); // 30,000 chars ≈ 7,500 tokens
  });

  test('a tiny output budget pulls down', () => {
    assert.equal(complexity('Rewrite this paragraph.', { maxTokens: 20 }), 'low');
  });
});

describe('classifyByRules (the pre-D18 baseline): features', () => {
  test('structural counts', () => {
    const text =
      'Three things?\n1. first?\n2. second?\n- bullet\n```js\nconst aB = c_d;\n```\nAlso 2 + 3 = 5 and x^2 ≤ 9.';
    const f = classify(
      req(text, {
        tools: [{ name: 't', parameters: {} }],
        responseFormat: { type: 'json_schema', schema: { type: 'object' } },
        maxTokens: 300,
        messages: [user(text), { role: 'user', content: [{ type: 'image', mediaType: 'image/png', url: 'https://x/y.png' }] }],
      }),
    ).features;
    assert.equal(f.messageCount, 2);
    assert.equal(f.codeFences, 2);
    assert.ok(f.codeSignals >= 3, `codeSignals ${f.codeSignals}`); // ; camelCase snake_case
    assert.ok(f.mathSignals >= 4, `mathSignals ${f.mathSignals}`); // + = ^ ≤
    assert.equal(f.questionMarks, 3);
    assert.equal(f.listItems, 3);
    assert.equal(f.toolCount, 1);
    assert.equal(f.jsonRequested, true);
    assert.equal(f.imageCount, 1);
    assert.equal(f.maxTokens, 300);
    assert.ok(f.promptTokens > 0);
    assert.ok(f.nonAsciiChars >= 0);
    assert.deepEqual(Object.keys(f.keywordHits), [...TASK_FAMILIES]);
  });

  test('absent options read as absent', () => {
    const f = classify(req('hello')).features;
    assert.equal(f.toolCount, 0);
    assert.equal(f.jsonRequested, false);
    assert.equal(f.imageCount, 0);
    assert.equal(f.maxTokens, null);
  });

  test('non-ASCII text is counted and does not break words', () => {
    const f = classify(req('Traduis ce texte: le café est très bon. 这是一个测试')).features;
    assert.equal(f.nonAsciiChars, 8); // é, è and six Han characters
  });
});

describe('classifyByRules (the pre-D18 baseline): determinism and bounded work', () => {
  const big = 'Please refactor this module. ' + 'lorem ipsum dolor sit amet '.repeat(40_000) + ' Then translate the comments into German.';

  test('same request, same classification (deep-equal, also on a structural clone)', () => {
    const r = req(big, { system: 'You are terse.', maxTokens: 800 });
    const a = classify(r);
    assert.deepEqual(classify(r), a);
    assert.deepEqual(classify(structuredClone(r)), a);
  });

  test('reads at most the head and tail windows of a huge prompt, within the budget', () => {
    const f = classify(req(big, { system: 'x'.repeat(100_000) })).features;
    assert.ok(f.scannedChars <= SCAN_BUDGET + SYSTEM_WINDOW, `${f.scannedChars}`);
    assert.equal(f.scannedChars, HEAD_WINDOW + TAIL_WINDOW + SYSTEM_WINDOW);
    // The instruction at the tail is still seen; prompt length still reflects the whole text.
    assert.ok(f.keywordHits.translation > 0);
    assert.ok(f.promptTokens > 250_000);
  });

  test('the budget is shared newest-first across many messages', () => {
    const messages = Array.from({ length: 50 }, (_, i) => user(`message ${i} `.repeat(100)));
    const f = classify({ shape: 'openai', model: 'auto', stream: false, messages }).features;
    assert.ok(f.scannedChars <= SCAN_BUDGET);
    assert.equal(f.messageCount, 50);
  });

  test('adversarial inputs finish and stay bounded', () => {
    for (const text of ['('.repeat(200_000), '`'.repeat(200_000), ' '.repeat(200_000), 'a'.repeat(200_000), '\n    '.repeat(50_000), '1+'.repeat(100_000)]) {
      const c = classify(req(text));
      assert.ok(c.features.scannedChars <= SCAN_BUDGET);
      assert.ok(c.features.codeFences <= 64);
    }
  });
});
