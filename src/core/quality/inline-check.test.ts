import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { CanonicalRequest, CanonicalResponse, FinishReason } from '../canonical/types.ts';
import { inlineCheck, FINDINGS, RISK, type Finding } from './inline-check.ts';
import { overallScore, shouldEscalate } from './score.ts';

const req = (text: string, over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  shape: 'openai',
  model: 'auto',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  stream: false,
  ...over,
});
const res = (text: string, finishReason: FinishReason = 'stop', extra: CanonicalResponse['content'] = []): CanonicalResponse => ({
  id: 'r1',
  model: 'm',
  content: [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...extra],
  finishReason,
  usage: { inputTokens: 10, outputTokens: 10 },
});
/** Scores are reported at 4 decimals. */
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const codes = (reasons: string[]) => reasons.map((r) => r.split(':')[0]);

describe('inlineCheck: clean answers', () => {
  test('a good plain answer scores 1 everywhere with no reasons', () => {
    const q = inlineCheck(req('What is the capital of France?'), res('The capital of France is Paris.'));
    assert.deepEqual(q, { accuracy: 1, structure: 1, instructionFidelity: 1, hallucinationRisk: 0, reasons: [] });
    assert.equal(shouldEscalate(q), false);
  });

  test('is deterministic', () => {
    const r = req('Summarize in 20 words: the quarterly report shows growth.');
    const a = res('Growth was strong this quarter according to the report, driven by new customers and lower churn.');
    assert.deepEqual(inlineCheck(r, a), inlineCheck(r, a));
  });
});

describe('findings table', () => {
  test('each finding alone escalates at the default floor exactly when the table says so', () => {
    for (const [code, f] of Object.entries(FINDINGS) as Array<[Finding, (typeof FINDINGS)[Finding]]>) {
      const q = { accuracy: 1 - f.accuracy, structure: 1 - f.structure, instructionFidelity: 1 - f.fidelity, hallucinationRisk: 0 };
      assert.equal(shouldEscalate(q), f.escalatesAlone, `${code}: overall ${overallScore(q)}`);
    }
  });

  test('an undeclared tool call alone escalates on risk; each capped heuristic alone does not', () => {
    assert.ok(RISK.undeclaredTool > 0.5);
    for (const cap of [RISK.unsourcedUrlCap, RISK.unsourcedCitationCap, RISK.unsourcedFigureCap, RISK.overconfidentCap]) {
      assert.equal(shouldEscalate({ accuracy: 1, structure: 1, instructionFidelity: 1, hallucinationRisk: cap }), false);
    }
  });
});

describe('inlineCheck: accuracy', () => {
  test('empty output is zero and escalates', () => {
    const q = inlineCheck(req('Hello?'), res(''));
    assert.equal(q.accuracy, 0);
    assert.equal(q.structure, 0);
    assert.equal(q.instructionFidelity, 0);
    assert.deepEqual(q.reasons, ['empty_output']);
    assert.equal(shouldEscalate(q), true);
  });

  test('whitespace-only output is empty', () => {
    assert.deepEqual(inlineCheck(req('Hello?'), res('  \n ')).reasons, ['empty_output']);
  });

  test('finish reason length marks truncation', () => {
    const q = inlineCheck(req('Explain TCP.'), res('TCP is a connection-oriented protocol that', 'length'));
    assert.ok(q.reasons.includes('truncated'));
    assert.equal(q.accuracy, r4(1 - FINDINGS.truncated.accuracy));
    assert.equal(q.structure, r4(1 - FINDINGS.truncated.structure));
  });

  test('a long answer cut mid-sentence is caught even with finish reason stop', () => {
    const body = 'TCP guarantees ordered delivery of bytes between two endpoints. '.repeat(5) + 'It does this by numbering every segment and';
    const q = inlineCheck(req('Explain TCP.'), res(body));
    assert.ok(q.reasons.includes('ends_mid_sentence'));
    // Lists and short answers are not judged.
    assert.deepEqual(inlineCheck(req('List fruits'), res('Fruits:\n- apple\n- pear')).reasons, []);
    assert.deepEqual(inlineCheck(req('Name a fruit'), res('apple')).reasons, []);
  });

  test('content filter and upstream error', () => {
    assert.ok(inlineCheck(req('x'), res('partial', 'content_filter')).reasons.includes('content_filtered'));
    assert.ok(inlineCheck(req('x'), res('partial', 'error')).reasons.includes('upstream_error'));
  });

  test('a short refusal is a refusal; a caveat inside a long answer is partial', () => {
    const q = inlineCheck(req('Write a limerick about cats.'), res("I'm sorry, but I can't help with that request."));
    assert.ok(q.reasons.includes('refusal'));
    assert.equal(q.accuracy, r4(1 - FINDINGS.refusal.accuracy));
    assert.equal(shouldEscalate(q), true);
    const curly = inlineCheck(req('Write a limerick.'), res('I\u2019m unable to write limericks.'));
    assert.ok(curly.reasons.includes('refusal'));
    const long = "I'm unable to browse the web, but here is what I know. " + 'Cats are independent animals. '.repeat(30);
    const p = inlineCheck(req('Tell me about cats.'), res(long));
    assert.ok(p.reasons.includes('partial_refusal'));
    assert.equal(p.accuracy, r4(1 - FINDINGS.partial_refusal.accuracy));
  });

  test('echoing the prompt back is not an answer', () => {
    const text = 'Please explain how vaccines train the immune system.';
    assert.ok(inlineCheck(req(text), res(text)).reasons.includes('echoed_prompt'));
  });

  test('an unclosed code fence breaks structure', () => {
    const q = inlineCheck(req('Show code'), res('Here:\n```js\nconsole.log(1);\n'));
    assert.ok(q.reasons.includes('unclosed_code_fence'));
  });
});

describe('inlineCheck: JSON and schema', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['name', 'age'],
    additionalProperties: false,
  };
  const jsonSchema: CanonicalRequest['responseFormat'] = { type: 'json_schema', schema };

  test('valid JSON for a json response format passes', () => {
    const q = inlineCheck(req('Give me a person', { responseFormat: { type: 'json' } }), res('{"name":"Ann"}'));
    assert.deepEqual(q.reasons, []);
  });

  test('unparseable JSON zeroes structure and escalates', () => {
    const q = inlineCheck(req('Give me a person', { responseFormat: { type: 'json' } }), res('Sure! {"name": "Ann",'));
    assert.ok(q.reasons.includes('json_unparseable'));
    assert.equal(q.structure, 0);
    assert.equal(q.instructionFidelity, r4(1 - FINDINGS.json_unparseable.fidelity));
  });

  test('JSON asked for in words is checked too, and a fence is tolerated there', () => {
    assert.ok(inlineCheck(req('Return JSON with the fields name and age.'), res('Name: Ann, age 3')).reasons.includes('json_unparseable'));
    assert.deepEqual(inlineCheck(req('Return JSON with the field name.'), res('```json\n{"name":"Ann"}\n```')).reasons, []);
  });

  test('a fenced answer under a JSON response format is a small slip', () => {
    const q = inlineCheck(req('Person', { responseFormat: { type: 'json' } }), res('```json\n{"name":"Ann"}\n```'));
    assert.deepEqual(q.reasons, ['json_fenced']);
    assert.equal(q.structure, r4(1 - FINDINGS.json_fenced.structure));
  });

  test('schema conformance', () => {
    assert.deepEqual(inlineCheck(req('Person', { responseFormat: jsonSchema }), res('{"name":"Ann","age":3,"tags":["a"]}')).reasons, []);
    const missing = inlineCheck(req('Person', { responseFormat: jsonSchema }), res('{"name":"Ann"}'));
    assert.deepEqual(missing.reasons, ['schema_violation: $ is missing required property "age"']);
    assert.equal(missing.structure, r4(1 - FINDINGS.schema_violation.structure));
    const wrongType = inlineCheck(req('Person', { responseFormat: jsonSchema }), res('{"name":"Ann","age":3.5,"tags":[1]}'));
    assert.deepEqual(wrongType.reasons, ['schema_violation: $.age expected integer, got number', 'schema_violation: $.tags[0] expected string, got integer']);
    const extra = inlineCheck(req('Person', { responseFormat: jsonSchema }), res('{"name":"Ann","age":3,"x":1}'));
    assert.deepEqual(extra.reasons, ['schema_violation: $ has unexpected property "x"']);
  });
});

describe('inlineCheck: instructions', () => {
  test('requested language not respected', () => {
    const r = req('Respond in French: what is the best season to visit Paris?');
    const english = inlineCheck(r, res('The best time to visit Paris is in the spring, when the weather is mild and the parks are in bloom.'));
    assert.ok(english.reasons.includes('language_mismatch: french'));
    assert.equal(english.instructionFidelity, r4(1 - FINDINGS.language_mismatch.fidelity));
    const french = inlineCheck(r, res('La meilleure saison pour visiter Paris est le printemps, quand il fait doux et que les parcs sont en fleurs.'));
    assert.deepEqual(french.reasons, []);
  });

  test('translation target in another script', () => {
    const r = req('Translate into Japanese: good morning, how are you?');
    assert.deepEqual(inlineCheck(r, res('おはようございます、お元気ですか？今日はいい天気ですね。')).reasons, []);
    assert.ok(inlineCheck(r, res('Good morning, how are you doing today? I hope you are well.')).reasons.includes('language_mismatch: japanese'));
  });

  test('terse answers are not judged on language', () => {
    assert.deepEqual(inlineCheck(req('Answer in German: 2+2?'), res('4')).reasons, []);
  });

  test('word limits: one word and N words, with a small allowance', () => {
    const one = req('Answer in one word: what colour is the sky?');
    assert.deepEqual(inlineCheck(one, res('Blue.')).reasons, []);
    const verbose = inlineCheck(one, res('The sky is usually blue during a clear day.'));
    assert.equal(codes(verbose.reasons)[0], 'length_exceeded');
    assert.equal(verbose.instructionFidelity, r4(1 - FINDINGS.length_exceeded.fidelity));
    const ten = req('Describe Rome in 10 words.');
    assert.deepEqual(inlineCheck(ten, res('Ancient capital with ruins, churches, piazzas, food, history and endless charm.')).reasons, []);
    assert.equal(codes(inlineCheck(ten, res('word '.repeat(13))).reasons)[0], 'length_exceeded');
    assert.deepEqual(inlineCheck(ten, res('word '.repeat(12).trim() + '.')).reasons, []);
  });

  test('sentence limits', () => {
    const r = req('Explain gravity in one sentence.');
    assert.deepEqual(inlineCheck(r, res('Gravity is the attraction between masses.')).reasons, []);
    const many = inlineCheck(r, res('Gravity attracts masses. It keeps planets in orbit. It bends light. It also slows clocks.'));
    assert.equal(codes(many.reasons)[0], 'length_exceeded');
  });

  test('a required tool call that is missing', () => {
    const tools = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
    const q = inlineCheck(req('Weather in Oslo?', { tools, toolChoice: 'required' }), res('It is sunny in Oslo.'));
    assert.ok(q.reasons.includes('tool_call_missing'));
    assert.equal(q.instructionFidelity, r4(1 - FINDINGS.tool_call_missing.fidelity));
    const named = inlineCheck(req('Weather?', { tools, toolChoice: { name: 'get_weather' } }), res('Sunny.'));
    assert.ok(named.reasons.includes('tool_call_missing'));
  });

  test('tool calls: correct, wrong name, bad arguments, undeclared, unexpected', () => {
    const tools = [
      { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      { name: 'get_time', parameters: { type: 'object' } },
    ];
    const call = (name: string, args: string) => [{ type: 'tool_call' as const, id: 'c1', name, arguments: args }];
    const r = req('Weather in Oslo?', { tools, toolChoice: { name: 'get_weather' } });
    assert.deepEqual(inlineCheck(r, res('', 'tool_calls', call('get_weather', '{"city":"Oslo"}'))).reasons, []);
    assert.ok(inlineCheck(r, res('', 'tool_calls', call('get_time', '{}'))).reasons.includes('tool_call_wrong_name: get_time'));
    assert.ok(inlineCheck(r, res('', 'tool_calls', call('get_weather', '{"city":'))).reasons.includes('tool_args_unparseable'));
    assert.ok(inlineCheck(r, res('', 'tool_calls', call('get_weather', '{"town":"Oslo"}'))).reasons.includes('tool_args_schema_violation'));
    const invented = inlineCheck(req('Weather?', { tools }), res('', 'tool_calls', call('launch_rocket', '{}')));
    assert.ok(invented.reasons.includes('tool_not_declared'));
    assert.equal(invented.hallucinationRisk, RISK.undeclaredTool);
    assert.equal(shouldEscalate(invented), true);
    const none = inlineCheck(req('Weather?', { tools, toolChoice: 'none' }), res('', 'tool_calls', call('get_time', '')));
    assert.ok(none.reasons.includes('tool_call_unexpected'));
  });

  test('a tool call answers a JSON request instead of text', () => {
    const tools = [{ name: 'save', parameters: { type: 'object' } }];
    const q = inlineCheck(
      req('Save it', { tools, responseFormat: { type: 'json' } }),
      res('', 'tool_calls', [{ type: 'tool_call', id: 'c', name: 'save', arguments: '{}' }]),
    );
    assert.deepEqual(q.reasons, []);
  });
});

describe('inlineCheck: hallucination heuristics', () => {
  test('URLs the prompt did not supply raise risk; supplied ones do not', () => {
    const q = inlineCheck(req('Where can I read about this?'), res('See https://example-journal.org/paper/123 and https://docs.fake.io/x.'));
    assert.equal(q.hallucinationRisk, 2 * RISK.unsourcedUrl);
    assert.equal(codes(q.reasons)[0], 'unsourced_url');
    const sourced = inlineCheck(req('Summarise https://example.com/post please'), res('The post at https://example.com/post argues for tabs.'));
    assert.equal(sourced.hallucinationRisk, 0);
  });

  test('URL risk is capped', () => {
    const urls = Array.from({ length: 10 }, (_, i) => `https://site${i}.com/a`).join(' ');
    assert.equal(inlineCheck(req('links?'), res(urls)).hallucinationRisk, RISK.unsourcedUrlCap);
  });

  test('citations and DOIs not in the prompt', () => {
    const q = inlineCheck(req('Is coffee healthy?'), res('Yes (Smith et al., 2019), see doi 10.1234/abcd.5678 for details.'));
    assert.equal(q.hallucinationRisk, 2 * RISK.unsourcedCitation);
    assert.equal(codes(q.reasons)[0], 'unsourced_citation');
  });

  test('precise figures from a number-free prompt', () => {
    const q = inlineCheck(req('How big is the market for widgets?'), res('It was $4,512,300 in total, growing 13.7% a year to 9.25 billion units and 87,000 firms.'));
    assert.ok(codes(q.reasons).includes('unsourced_figures'));
    assert.ok(q.hallucinationRisk > 0);
    // Figures are expected when the prompt brought data.
    const withData = inlineCheck(req('Revenue was 4512300 last year; growth 13.7%. Project next year.'), res('About 5,130,485, i.e. 13.7% growth on 4,512,300; margin 21.25%.'));
    assert.equal(withData.hallucinationRisk, 0);
  });

  test('overconfident appeals to unnamed authority', () => {
    const q = inlineCheck(req('Is chocolate good for you?'), res('Studies show that chocolate is healthy, and experts agree on this.'));
    assert.equal(q.hallucinationRisk, RISK.overconfidentCap);
    assert.equal(codes(q.reasons)[0], 'overconfident_claim');
  });

  test('risk stacks up to escalation', () => {
    const q = inlineCheck(
      req('Tell me about the history of the zipper.'),
      res('According to Johnson et al. (2011) and Lee et al. 2015, see https://a.com/x https://b.com/y https://c.com/z https://d.com/w.'),
    );
    assert.ok(q.hallucinationRisk > 0.5);
    assert.equal(shouldEscalate(q), true);
    assert.ok(overallScore(q) > 0.6); // escalates on risk alone
  });
});

describe('inlineCheck: bounded work', () => {
  test('a huge answer and a huge prompt are handled', () => {
    const prompt = 'Please summarise this log. ' + 'line of log text without any digits '.repeat(20_000);
    const answer = 'The log repeats one line. '.repeat(20_000);
    const q = inlineCheck(req(prompt), res(answer));
    assert.ok(q.accuracy >= 0 && q.accuracy <= 1);
  });
});
