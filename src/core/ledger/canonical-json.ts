// Canonical JSON for ledger seals (D8): RFC 8785 (JCS) via the `canonicalize` package, after a
// conversion step that makes every value JSON-representable without loss.
//
// Why the conversion: money is bigint (D1) and JSON.stringify throws on bigint, while turning a
// bigint into a Number would silently round above 2^53. So a bigint becomes its decimal string
// ("-1500000") before canonicalisation, exactly as it is rendered at the API edge. Consequence, by
// design: the bigint 5n and the string "5" canonicalise identically; the payload's TypeScript type,
// not the JSON, says which columns are amounts.
//
// Anything that would serialise ambiguously or lossily is refused rather than guessed at: Map,
// Set, Buffer and other class instances (JSON.stringify would turn them into {} or an odd shape),
// functions, symbols, non-finite numbers. A Date becomes its ISO string. Payloads must be trees.
import canonicalizeImport from 'canonicalize';

type Canonicalize = (input: unknown) => string | undefined;
// Node's ESM→CJS interop hands us module.exports, which is the function itself; the package's
// typings declare an ES default export, which TypeScript (NodeNext) reads as `{ default: fn }`.
// Accept both shapes so the code is right at runtime and under the type checker.
const canonicalize: Canonicalize =
  typeof canonicalizeImport === 'function'
    ? (canonicalizeImport as unknown as Canonicalize)
    : (canonicalizeImport as unknown as { default: Canonicalize }).default;

/** A value that JSON can carry exactly. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Deep copy of `value` with every bigint as a decimal string and every Date as an ISO string.
 * Object properties whose value is undefined are dropped (as JSON does); undefined inside an
 * array, or at the top, is an error because JSON would change it to null.
 */
export function toJsonValue(value: unknown, path = '$'): JsonValue {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} cannot be represented in JSON`);
      return value;
    case 'undefined':
      throw new TypeError(`${path}: undefined cannot be represented in JSON`);
    case 'function':
    case 'symbol':
      throw new TypeError(`${path}: a ${typeof value} cannot be represented in JSON`);
  }
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v, i) => toJsonValue(v, `${path}[${i}]`));
  if (!isPlainObject(value as object)) {
    throw new TypeError(`${path}: ${(value as object).constructor?.name ?? 'object'} is not a plain object`);
  }
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v !== undefined) out[k] = toJsonValue(v, `${path}.${k}`);
  }
  return out;
}

/** RFC 8785 canonical JSON of `value` (bigint as decimal strings, see module header). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(toJsonValue(value));
  if (text === undefined) throw new TypeError('value cannot be canonicalised');
  return text;
}
