// Generators of hostile requests (issue 24 item 4): wrong types, huge and negative numbers, deep
// nesting, invalid UTF-8 bytes, oversized fields, duplicated JSON keys, bad content types, garbage
// in paths, queries and headers. A case is plain data (method, path, headers, body bytes, and
// what it was meant to exercise), so a failure prints as something one can replay with curl.
import fc from 'fast-check';
import type { RouteClass } from '../route-table.ts';

export interface RouteInfo {
  method: string;
  url: string;
  cls: RouteClass;
  /** Body and query field names from the route's own schema (the OpenAPI document). */
  bodyFields: string[];
  queryFields: string[];
}

/** What the generators may fill in: credentials and ids of the test tenant and of another. */
export interface Pools {
  ownerToken: () => string;
  memberToken: () => string;
  viewerToken: () => string;
  adminToken: () => string;
  key: () => string;
  /** Valid ids of the test tenant (decoys the fuzzer may delete) and of another tenant, per resource. */
  ownIds: Record<string, string[]>;
  otherIds: Record<string, string[]>;
}

export interface Case {
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  note: string;
}

// ------------------------------------------------------------------------------- leaf values

const hugeNumbers = fc.constantFrom(
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  1e308,
  -1e308,
  9223372036854775807,
  -9223372036854775808,
  2 ** 31,
  -(2 ** 31) - 1,
  -1,
  0,
  -0.5,
  1.5,
  1e-320,
);
const numericStrings = fc.constantFrom('9223372036854775808', '-9223372036854775809', '99999999999999999999999999', '-1', '0', '1e400', 'NaN', 'Infinity', '-0', '0x10', '1_000', ' 1', '١٢٣');
const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u2066',
  '\ufeff',
  '../../etc/passwd',
  '%00',
  '%',
  '<script>alert(1)</script>',
  "'; drop table tenants; --",
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'null',
  'true',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'gpt-4o-mini',
  'auto',
  'claude-haiku-4-5',
  'gemini-2.5-flash',
  'user',
  'assistant',
  'system',
  'owner',
  'admin',
  'dev',
  'production',
  'https://example.com/hook',
  'http://127.0.0.1:1/',
  'a@b.c',
);
const longString = fc.integer({ min: 300, max: 120_000 }).chain((n) => fc.constantFrom('x', 'é', '😀', '\u0000', ' ', 'ab').map((c) => c.repeat(Math.ceil(n / c.length))));

export const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 3, arbitrary: nastyStrings },
  { weight: 2, arbitrary: hugeNumbers },
  { weight: 2, arbitrary: numericStrings },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: longString },
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.constant({}) },
);

/** JSON of any type: leaves, arrays and objects, a few levels deep, with `keys` among the names. */
export function jsonish(keys: string[]): fc.Arbitrary<unknown> {
  const key = keys.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }) : fc.string({ maxLength: 12 });
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    ),
  }));
  return value;
}

// ----------------------------------------------------------------------------------- bodies

const deepText = fc.record({ depth: fc.integer({ min: 50, max: 200_000 }), kind: fc.constantFrom('array', 'object', 'mixed') }).map(({ depth, kind }) => {
  if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  if (kind === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  return '{"messages":[{"role":"user","content":' + '['.repeat(depth) + ']'.repeat(depth) + '}]}';
});

/** Invalid UTF-8 byte sequences: a lone continuation, overlong forms, an encoded surrogate, 0xFF. */
const badUtf8 = fc.constantFrom([0xff], [0xfe, 0xff], [0x80], [0xc3, 0x28], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]).map((b) => Buffer.from(b));

/** Sets `value` at a random place in a JSON value (or replaces it whole). */
function plant(base: unknown, path: number[], value: unknown): unknown {
  if (path.length === 0 || base === null || typeof base !== 'object') return value;
  const [i, ...rest] = path;
  if (Array.isArray(base)) {
    if (base.length === 0) return [value];
    const copy = [...base];
    copy[i % copy.length] = plant(copy[i % copy.length], rest, value);
    return copy;
  }
  const keys = Object.keys(base);
  if (keys.length === 0) return { x: value };
  const k = keys[i % keys.length];
  return { ...(base as Record<string, unknown>), [k]: plant((base as Record<string, unknown>)[k], rest, value) };
}

function dropAt(base: unknown, path: number[]): unknown {
  if (base === null || typeof base !== 'object') return base;
  const [i, ...rest] = path;
  if (Array.isArray(base)) return base.length === 0 ? base : rest.length ? base.map((v, j) => (j === i % base.length ? dropAt(v, rest) : v)) : base.filter((_v, j) => j !== i % base.length);
  const keys = Object.keys(base);
  if (keys.length === 0) return base;
  const k = keys[i % keys.length];
  const copy = { ...(base as Record<string, unknown>) };
  if (rest.length && copy[k] && typeof copy[k] === 'object') copy[k] = dropAt(copy[k], rest);
  else delete copy[k];
  return copy;
}

export function bodyArb(r: RouteInfo, samples: unknown[]): fc.Arbitrary<{ body: Buffer | undefined; note: string }> {
  const fields = r.bodyFields;
  const seeds = samples.length ? samples : [Object.fromEntries(fields.slice(0, 3).map((f) => [f, 'x']))];
  const seed = fc.constantFrom(...seeds);
  const path = fc.array(fc.nat(50), { minLength: 1, maxLength: 5 });
  const json = (v: unknown, note: string) => ({ body: Buffer.from(JSON.stringify(v) ?? 'null'), note });
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ body: undefined, note: 'no body' }) },
    { weight: 2, arbitrary: seed.map((v) => json(v, 'a valid body')) },
    { weight: 6, arbitrary: fc.tuple(seed, path, jsonish(fields)).map(([s, p, v]) => json(plant(s, p, v), 'a valid body with one value replaced')) },
    { weight: 2, arbitrary: fc.tuple(seed, path).map(([s, p]) => json(dropAt(s, p), 'a valid body with one field dropped')) },
    { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...(fields.length ? fields : ['x'])), jsonish(fields), { maxKeys: 6 }).map((v) => json(v, 'the schema’s fields with hostile values')) },
    { weight: 2, arbitrary: jsonish(fields).map((v) => json(v, 'any JSON value')) },
    { weight: 1, arbitrary: deepText.map((t) => ({ body: Buffer.from(t), note: 'deep nesting' })) },
    {
      weight: 2,
      arbitrary: fc.tuple(seed, fc.nat(50), jsonish(fields)).map(([s, i, v]) => {
        const text = JSON.stringify(s);
        const keys = s && typeof s === 'object' && !Array.isArray(s) ? Object.keys(s) : [];
        const k = keys.length ? keys[i % keys.length] : 'model';
        // The same key twice, the second with another type: parsers disagree on which wins.
        const dup = text.startsWith('{') && text.length > 2 ? `{${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'},${text.slice(1)}` : `{"${k}":1,"${k}":${JSON.stringify(v) ?? 'null'}}`;
        return { body: Buffer.from(dup), note: `duplicated key ${k}` };
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(seed, fc.nat(1000), badUtf8).map(([s, at, bad]) => {
        const text = Buffer.from(JSON.stringify(s));
        // Inside a string value when there is one (just after an opening quote), else anywhere.
        const quotes = [...text.keys()].filter((j) => text[j] === 0x22);
        const pos = quotes.length ? quotes[at % quotes.length] + 1 : at % (text.length + 1);
        return { body: Buffer.concat([text.subarray(0, pos), bad, text.subarray(pos)]), note: 'invalid UTF-8 bytes' };
      }),
    },
    { weight: 1, arbitrary: fc.tuple(seed, path, fc.integer({ min: 200_000, max: 1_500_000 })).map(([s, p, n]) => json(plant(s, p, 'A'.repeat(n)), `an oversized field (${n} bytes)`)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => ({ body: Buffer.from(b), note: 'random bytes' })) },
    { weight: 1, arbitrary: fc.tuple(seed, fc.nat()).map(([s, n]) => { const t = JSON.stringify(s); return { body: Buffer.from(t.slice(0, n % Math.max(1, t.length))), note: 'truncated JSON' }; }) },
  );
}

export const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constant('application/json; charset=utf-8') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz',
      'application/octet-stream',
      'application/x-ndjson',
      'text/csv',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'application/json, text/plain',
      'application/vnd.api+json',
      'application/jsonx',
      ';;;',
      'application/json; charset="\u00ff"',
      'text/event-stream',
      '*/*',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

// -------------------------------------------------------------------------- path and query

/** Garbage for one path segment, already as it goes on the wire. */
export const segmentGarbage = fc.oneof(
  fc.constantFrom('%', '%zz', '%ff', '%c3%28', '%00', '%2e%2e', '..', '%2F', 'null', 'undefined', '-1', '0', '1e999', '%E2%80%AE', '\u00ff\u00fe', '00000000-0000-0000-0000-000000000000', 'g1b2c3d4-0000-4000-8000-000000000000', 'gemini-2.5-flash:generateContent', 'x:streamGenerateContent', ':generateContent', '%3AgenerateContent'),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.integer({ min: 100, max: 9000 }).map((n) => 'a'.repeat(n)),
  fc.uuid().map((u) => u.toUpperCase()),
);

const queryKey = (fields: string[]) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...fields, 'limit', 'cursor', 'projectId', 'window', 'format', 'model', 'stream', 'alt', 'key', 'type', 'from', 'to', 'token', 'userCode', 'channel') }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map(encodeURIComponent) }, { weight: 1, arbitrary: fc.constantFrom('a[b]', '__proto__', 'constructor[prototype]', '%', '') });
const queryValue = fc.oneof(
  leaf.map((v) => encodeURIComponent(typeof v === 'string' ? v.replace(/[\ud800-\udfff]/g, '') : JSON.stringify(v) ?? '')),
  fc.constantFrom('%', '%zz', '%ff', '%00', '-1', '0', '201', '1e400', 'NaN', 'true', '[]', 'a&b', '%26', 'sse', 'json', '7', '30', '90'),
  fc.integer({ min: 2000, max: 8_000 }).map((n) => 'q'.repeat(n)),
);
export const queryArb = (fields: string[]) =>
  fc.array(fc.tuple(queryKey(fields), queryValue), { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

// ---------------------------------------------------------------------------------- headers

const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')),
  // Latin-1 bytes: sent as is, invalid UTF-8 on the wire.
  fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 8 }).map((cs) => String.fromCharCode(...cs)),
  fc.integer({ min: 1000, max: 6_000 }).map((n) => 'h'.repeat(n)),
  fc.constantFrom('', ' ', 'null', '-1', '2023-06-01', 'tools-2024-04-04', 'assistants=v2', 'mcp', 'proxy', 'MCP', 'bogus', 'gzip', 'http://evil.example', 'null'),
);
const headerName = fc.constantFrom(
  'x-service-channel',
  'x-service-conversation-id',
  'anthropic-version',
  'anthropic-beta',
  'openai-beta',
  'x-goog-api-key',
  'x-api-key',
  'origin',
  'referer',
  'cookie',
  'accept',
  'accept-encoding',
  'content-encoding',
  'last-event-id',
  'x-forwarded-for',
  'idempotency-key',
  'user-agent',
  'sec-fetch-site',
  'stripe-signature',
  'x-request-id',
);
export const extraHeaders = fc.dictionary(headerName, headerValue, { maxKeys: 3 });

// ------------------------------------------------------------------------------- credentials

export type Cred = 'right' | 'none' | 'garbage' | 'lower' | 'other-kind' | 'cookie';
export const credArb: fc.Arbitrary<Cred> = fc.oneof({ weight: 14, arbitrary: fc.constant('right' as const) }, { weight: 1, arbitrary: fc.constantFrom('none', 'garbage', 'lower', 'other-kind', 'cookie') });

export function credentialHeaders(r: RouteInfo, cred: Cred, p: Pools): Record<string, string> {
  const g = r.cls.guard;
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
  if (cred === 'none') return {};
  if (cred === 'garbage') return bearer(g.kind === 'proxy' || g.kind === 'key' ? 'svc_live_' + 'z'.repeat(40) : 'eyJhbGciOiJub25lIn0.e30.');
  switch (g.kind) {
    case 'public':
      return cred === 'right' ? {} : bearer(p.ownerToken());
    case 'user':
      if (cred === 'lower') return bearer(g.role === 'viewer' ? p.viewerToken() : p.viewerToken());
      if (cred === 'other-kind') return bearer(p.key());
      if (cred === 'cookie') return { cookie: `sb_access=${p.ownerToken()}`, origin: 'http://evil.example' };
      return bearer(g.role === 'member' && cred === 'right' ? p.memberToken() : p.ownerToken());
    case 'platform':
      if (cred === 'lower' || cred === 'other-kind') return bearer(p.ownerToken());
      if (cred === 'cookie') return { cookie: `sb_access=${p.adminToken()}` };
      return bearer(p.adminToken());
    case 'key':
    case 'userOrKey':
      if (cred === 'lower') return bearer(p.viewerToken());
      if (cred === 'other-kind') return g.kind === 'key' ? bearer(p.ownerToken()) : { 'x-api-key': p.key() };
      if (cred === 'cookie') return { cookie: `sb_access=${p.ownerToken()}` };
      return bearer(p.key());
    case 'proxy':
      if (cred === 'other-kind') return bearer(p.ownerToken());
      if (cred === 'cookie' || cred === 'lower') return g.shape === 'gemini' ? { 'x-goog-api-key': p.key() } : { 'x-api-key': p.key() };
      return bearer(p.key());
  }
}
