import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, toJsonValue } from './canonical-json.ts';

describe('canonicalJson (RFC 8785)', () => {
  test('sorts keys recursively and drops whitespace', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } }), '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  test('key order is by UTF-16 code units (RFC 8785 §3.2.3 example)', () => {
    const input = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    // Read the order off the text: JSON.parse would put the integer-like key "1" first again.
    const out = canonicalJson(input);
    const values = ['Carriage Return', 'One', 'Control', 'Latin Small', 'Euro Sign', 'Emoji', 'Hebrew'];
    const positions = values.map((v) => out.indexOf(v));
    assert.ok(positions.every((p) => p > 0));
    assert.deepEqual([...positions].sort((a, b) => a - b), positions);
    assert.ok(out.startsWith('{"\\r":"Carriage Return","1":"One",'));
  });

  test('numbers use the ECMAScript shortest form (RFC 8785 §3.2.2.3)', () => {
    assert.equal(canonicalJson([1e21, 1e-7, 0.1, -0, 333333333.3333333, 4.5, 2e-3]), '[1e+21,1e-7,0.1,0,333333333.3333333,4.5,0.002]');
  });

  test('bigint becomes its decimal string, without precision loss', () => {
    assert.equal(canonicalJson({ amount: -1_500_000n }), '{"amount":"-1500000"}');
    assert.equal(canonicalJson({ big: 2n ** 80n }), '{"big":"1208925819614629174706176"}');
    assert.equal(canonicalJson([0n, 9_007_199_254_740_993n]), '["0","9007199254740993"]');
  });

  test('null stays, undefined properties are dropped, Dates become ISO strings', () => {
    assert.equal(canonicalJson({ a: null, b: undefined }), '{"a":null}');
    assert.equal(canonicalJson({ t: new Date(Date.UTC(2026, 10, 1, 12, 0, 0, 5)) }), '{"t":"2026-11-01T12:00:00.005Z"}');
  });

  test('strings are escaped the JSON way', () => {
    assert.equal(canonicalJson({ s: 'a"b\\c\n\u0001é€' }), '{"s":"a\\"b\\\\c\\n\\u0001é€"}');
  });

  test('refuses values that JSON would carry lossily or ambiguously', () => {
    assert.throws(() => canonicalJson({ n: Number.NaN }), TypeError);
    assert.throws(() => canonicalJson({ n: Number.POSITIVE_INFINITY }), TypeError);
    assert.throws(() => canonicalJson({ m: new Map([[1, 2]]) }), /Map is not a plain object/);
    assert.throws(() => canonicalJson({ b: Buffer.from('x') }), /Buffer is not a plain object/);
    assert.throws(() => canonicalJson({ f: () => 1 }), TypeError);
    assert.throws(() => canonicalJson([undefined]), /\$\[0\]: undefined/);
    assert.throws(() => canonicalJson(undefined), TypeError);
  });

  test('the conversion does not mutate its input', () => {
    const input = { a: 1n, nested: { b: 2n } };
    toJsonValue(input);
    assert.equal(input.a, 1n);
    assert.equal(input.nested.b, 2n);
  });

  test('objects without a prototype are plain', () => {
    const o = Object.create(null) as Record<string, unknown>;
    o.z = 1;
    o.a = 2;
    assert.equal(canonicalJson(o), '{"a":2,"z":1}');
  });
});
