import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { CanonicalRequest, Message } from '../canonical/types.ts';
import { classify, CLASSIFIER_VERSION, decodeModel, modelFromTable, pickComplexity, shippedModel, SHIPPED_WEIGHTS, STRIDE, toShipped, type WeightsFile } from './classify.ts';
import { extractFeatures, HASH_BITS, HEAD_WINDOW, HISTORY_BUDGET, NS_INSTR, NS_WORDS, SYSTEM_WINDOW, TAIL_WINDOW } from './features.ts';
import { benchmarkRequest } from './bench.ts';
import { COMPLEXITIES, TASK_FAMILIES } from './vocabulary.ts';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const req = (text: string, over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  shape: 'openai',
  model: 'auto',
  messages: [user(text)],
  stream: false,
  ...over,
});

describe('classify: trained Layer 1 (D18)', () => {
  // Plain requests whose reading no person would dispute; written for this test, not taken from
  // the corpus. The held-out accuracy is `npm run eval:routing`'s job, not this test's.
  const families: Array<[string, string]> = [
    ['How do I reverse a string in JavaScript?', 'coding'],
    ['Write a cheerful limerick about a cat who loves lasagna.', 'writing'],
    ['Who discovered penicillin?', 'research'],
    ['Explain how photosynthesis works, step by step, for a high-school class.', 'research'],
    ['Translate "good evening, how was your day?" into Italian.', 'translation'],
    ['Prove that the sum of two odd integers is even.', 'math'],
    ['hey there, how are you doing today?', 'conversation'],
  ];
  for (const [text, family] of families) {
    test(`family ${family}: ${JSON.stringify(text.slice(0, 40))}`, () => assert.equal(classify(req(text)).taskFamily, family));
  }
  const complexities: Array<[string, string]> = [
    ['What is 2 + 2?', 'low'],
    ["Translate 'hello' into French.", 'low'],
    ['Write a 600-word blog post about learning to cook as an adult, with three practical tips.', 'medium'],
    ['Prove that there are infinitely many primes, then prove that the square root of 2 is irrational.', 'high'],
    ['Design the architecture of a payment system that runs in three regions with failover, exactly-once ledger writes and a migration plan from our monolith.', 'high'],
  ];
  for (const [text, complexity] of complexities) {
    test(`complexity ${complexity}: ${JSON.stringify(text.slice(0, 40))}`, () => assert.equal(classify(req(text)).complexity, complexity));
  }

  test('the decision carries the weights version and what the model saw', () => {
    const c = classify(req('Summarize this in one sentence:\n\n' + 'The council approved the budget after a long debate. '.repeat(8)));
    assert.equal(c.features.classifierVersion, CLASSIFIER_VERSION);
    assert.match(CLASSIFIER_VERSION, /^l1w-[0-9a-f]{12}$/);
    assert.equal(c.features.classifierVersion, SHIPPED_WEIGHTS.version);
    assert.ok(c.features.familyConfidence > 0 && c.features.familyConfidence <= 1);
    assert.ok(c.features.runnerUpConfidence <= c.features.familyConfidence);
    assert.notEqual(c.features.runnerUp, c.taskFamily);
    assert.ok(TASK_FAMILIES.includes(c.features.runnerUp));
    // The call-log row stores features as JSON: it must survive the round trip unchanged.
    assert.deepEqual(JSON.parse(JSON.stringify(c.features)), c.features);
  });

  test('same request, same decision: repeated, and on a structural clone', () => {
    const r = benchmarkRequest(2048);
    const a = classify(r);
    assert.deepEqual(classify(r), a);
    assert.deepEqual(classify(structuredClone(r)), a);
  });

  test('structural counts', () => {
    const text = 'Three things?\n1. first?\n2. second?\n- bullet\n```js\nconst aB = c_d;\n```\na,b,c\n1,2,3\n4,5,6\nAlso 2 + 3 = 5 and x^2 ≤ 9.';
    const f = classify(
      req(text, {
        system: 'Be brief.',
        tools: [{ name: 't', parameters: {} }],
        responseFormat: { type: 'json_schema', schema: { type: 'object' } },
        messages: [user(text), { role: 'user', content: [{ type: 'image', mediaType: 'image/png', url: 'https://x/y.png' }] }],
      }),
    ).features;
    assert.equal(f.messageCount, 2);
    assert.equal(f.userTurns, 2);
    assert.equal(f.systemChars, 9);
    assert.equal(f.instructionChars, text.length);
    assert.equal(f.codeFences, 2);
    assert.ok(f.codeLines >= 1, `codeLines ${f.codeLines}`);
    assert.equal(f.tableLines, 3);
    assert.equal(f.listItems, 3);
    assert.equal(f.questionMarks, 3);
    assert.ok(f.mathSignals >= 3, `mathSignals ${f.mathSignals}`);
    assert.equal(f.toolCount, 1);
    assert.equal(f.jsonRequested, true);
    assert.equal(f.imageCount, 1);
    assert.equal(f.script, 'latin');
  });

  test('inflections of a long word share its stem feature; short words and numbers have none', () => {
    // The word features of a one-word message (its unigram, and its stem when it has one), without
    // the character 4-grams, edge words and structure that any two similar words would share anyway.
    const words = (text: string): Set<string> => {
      const seen = new Set<string>();
      extractFeatures(req(text), { add: (ns, bucket) => (ns === NS_WORDS || ns === NS_INSTR) && seen.add(`${ns}:${bucket}`) });
      return seen;
    };
    const shared = (a: string, b: string): number => [...words(a)].filter((f) => words(b).has(f)).length;
    assert.equal(words('summarise').size, 2, 'a word of seven or more: its unigram and its stem');
    assert.equal(shared('summarise', 'summarization'), 1);
    assert.equal(shared('zusammenfassen', 'zusammenfassung'), 1);
    assert.equal(shared('summarise', 'translate'), 0);
    assert.equal(words('summit').size, 1, 'words under seven characters have no stem');
    assert.equal(shared('12345678', '12345699'), 1, 'numbers: their length class only, no stem');
    assert.equal(words('12345678').size, 1);
  });

  test('scripts are told apart', () => {
    assert.equal(classify(req('この文章を英語に翻訳してください。')).features.script, 'kana');
    assert.equal(classify(req('请把这段话翻译成英文。')).features.script, 'cjk');
    assert.equal(classify(req('Переведи этот текст на английский.')).features.script, 'cyrillic');
    assert.equal(classify(req('이 문장을 영어로 번역해 주세요.')).features.script, 'hangul');
  });

  test('reads bounded windows of a huge prompt, whatever its size', () => {
    const huge = 'word '.repeat(400_000); // 2 MB
    const f = classify(req(huge, { system: 'rule '.repeat(10_000), messages: [user(huge), { role: 'assistant', content: [{ type: 'text', text: huge }] }, user(huge)] })).features;
    assert.ok(f.scannedChars <= HEAD_WINDOW + TAIL_WINDOW, `${f.scannedChars}`);
    assert.ok(f.promptTokens > 700_000);
    // Everything read, system and history included, stays within the fixed windows.
    let read = 0;
    extractFeatures(req(huge, { system: 'rule '.repeat(10_000) }), { add: () => void read++ });
    assert.ok(read < (HEAD_WINDOW + TAIL_WINDOW + SYSTEM_WINDOW + HISTORY_BUDGET) / 2, `${read} features`);
  });

  test('the decision carries every structural feature the extraction returns, in its order', () => {
    // classify copies the structure field by field (no spread on the hot path): a field added to
    // extractFeatures and not to that copy fails here instead of vanishing from the call log.
    const r = req('Write a table of the planets in JSON, then a haiku about Mars? ```x```', { system: 'be brief', tools: [{ name: 't', parameters: {} }] });
    const structure = extractFeatures(r, { add: () => {} });
    const f = classify(r).features as unknown as Record<string, unknown>;
    assert.deepEqual(Object.keys(f).slice(0, Object.keys(structure).length), Object.keys(structure));
    for (const [k, v] of Object.entries(structure)) assert.equal(f[k], v, k);
  });

  test('degenerate and adversarial inputs finish with a valid decision', () => {
    const odd: CanonicalRequest[] = [
      req(''),
      { shape: 'openai', model: 'auto', stream: false, messages: [] },
      { shape: 'openai', model: 'auto', stream: false, messages: [{ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: 'AAAA' }] }] },
      req('x'.repeat(100_000)),
      req('\n'.repeat(50_000)),
      req('```'.repeat(10_000)),
      req('🙂'.repeat(20_000)),
      req('\ud800'.repeat(1000)),
      req('中'.repeat(30_000)),
      { shape: 'anthropic', model: 'auto', stream: false, messages: [{ role: 'tool', content: [{ type: 'tool_result', toolCallId: 'a', content: 'result '.repeat(5000) }] }] },
    ];
    for (const r of odd) {
      const c = classify(r);
      assert.ok(TASK_FAMILIES.includes(c.taskFamily));
      assert.ok(COMPLEXITIES.includes(c.complexity));
    }
  });

  test('a long pasted document with a short instruction is read for its instruction', () => {
    const doc = 'The committee reviewed the quarterly results and the hiring plan for the coming year. '.repeat(120);
    assert.equal(classify(req(`${doc}\n\nTranslate the text above into German.`)).taskFamily, 'translation');
    assert.equal(classify(req(`Summarize the following report for the board.\n\n${doc}`)).taskFamily, 'summarization');
  });

  test('an 8k-token prompt takes well under the 0.2 ms budget (generous bound; bench/ measures it)', () => {
    const r = benchmarkRequest(8192);
    for (let i = 0; i < 500; i++) classify(r);
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t0 = process.hrtime.bigint();
      classify(r);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    times.sort((a, b) => a - b);
    // The median, not the tail: on a shared machine the tail measures the scheduler, not us.
    assert.ok(times[1000] < 0.2, `median ${times[1000].toFixed(3)} ms`);
  });
});

describe('classify: weights file', () => {
  test('the shipped table has the documented layout and is used in place, 16 MiB in memory', () => {
    const m = shippedModel();
    assert.equal(m.version, SHIPPED_WEIGHTS.version);
    assert.equal(m.dense.length, (1 << HASH_BITS) * STRIDE);
    assert.equal(SHIPPED_WEIGHTS.table.bytes, m.dense.byteLength);
    assert.ok(m.dense.byteLength < 20 * 1024 * 1024);
    assert.ok(m.dense.some((w) => w !== 0));
    // Only the first twelve bytes of a row are weights; the rest is padding for the cache line.
    for (let b = 0; b < 1 << HASH_BITS; b += 997) for (let k = 12; k < STRIDE; k++) assert.equal(m.dense[b * STRIDE + k], 0);
  });

  // A small trainer's file: two buckets, every output weighted.
  const tiny = (): WeightsFile => {
    const weights = Buffer.alloc(2 * 12);
    for (let i = 0; i < weights.length; i++) weights[i] = (i * 7 - 40) & 0xff;
    return {
      version: 'l1w-000000000000',
      hashBits: HASH_BITS,
      families: [...TASK_FAMILIES],
      complexities: [...COMPLEXITIES],
      scale: new Array(12).fill(0.01),
      bias: new Array(12).fill(0),
      underCost: 1.5,
      buckets: Buffer.from([5, 0x80 | 3, 1]).toString('base64'), // buckets 5 and 5 + 131
      weights: weights.toString('base64'),
      trainedOn: { corpusSha256: 'x', rows: 1, params: '{}' },
    };
  };

  test('a trainer\'s file and its shipped pair decode to the same model', () => {
    const file = tiny();
    const decoded = decodeModel(file);
    const { meta, table } = toShipped(file);
    assert.equal('weights' in meta || 'buckets' in meta, false, 'the shipped metadata carries no copy of the table');
    const shipped = modelFromTable(meta, table);
    assert.deepEqual(Buffer.from(shipped.dense.buffer, shipped.dense.byteOffset, shipped.dense.byteLength), Buffer.from(decoded.dense.buffer));
    assert.equal(shipped.dense[5 * STRIDE], -40);
    assert.equal(shipped.dense[136 * STRIDE + 11], (23 * 7 - 40) << 24 >> 24);
    assert.equal(shipped.underCost, 1.5);
  });

  test('a file for another vocabulary or hash size, or a table of another length or content, is refused with its fix', () => {
    const file = tiny();
    assert.throws(() => decodeModel({ ...file, hashBits: HASH_BITS + 1 }), /buckets/);
    assert.throws(() => decodeModel({ ...file, families: [...file.families].reverse() }), /vocabulary/);
    const { meta, table } = toShipped(file);
    assert.throws(() => modelFromTable(meta, table.subarray(0, table.length - STRIDE)), /has \d+ bytes, expected \d+: run npm run train:routing/);
    const changed = Uint8Array.from(table);
    changed[5 * STRIDE] ^= 1;
    assert.throws(() => modelFromTable(meta, changed), /does not match l1w-000000000000: run npm run train:routing/);
    assert.throws(() => modelFromTable({ ...meta, stride: 12 }, table), /rows of 12 bytes/);
  });
});

describe('pickComplexity: reading too low costs more than reading too high', () => {
  test('with equal costs it is the most likely level', () => {
    assert.equal(pickComplexity([0.6, 0.3, 0.1], 1), 0);
    assert.equal(pickComplexity([0.1, 0.3, 0.6], 1), 2);
  });
  test('a close call between two levels goes up', () => {
    assert.equal(pickComplexity([0.52, 0.48, 0], 1.5), 1);
    assert.equal(pickComplexity([0, 0.55, 0.45], 1.5), 2);
  });
  test('a clear call stays', () => {
    assert.equal(pickComplexity([0.9, 0.1, 0], 1.5), 0);
  });
});
