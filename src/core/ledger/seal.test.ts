import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import {
  CUSTOMER_LABELS,
  LEDGER_EVENT_TYPES,
  SEALED_COLUMNS,
  canonicalLedgerPayload,
  ledgerPayloadOf,
  validateLedgerPayload,
  type LedgerPayload,
  type SealedLedgerRow,
} from './payload.ts';
import { GENESIS_HASH, isSealHash, seal, sealLedgerEntry, timingSafeEqualHex, verifyChain, verifyPayloadChain } from './seal.ts';

const SECRET = 'test-ledger-secret';
const TENANT = '6f1c2d3e-0000-4000-8000-000000000001';

const payload = (n: number, over: Partial<LedgerPayload> = {}): LedgerPayload => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  tenantId: TENANT,
  projectId: n === 1 ? null : '7a7a7a7a-0000-4000-8000-000000000009',
  eventType: n === 1 ? 'WALLET_TOPUP' : 'AI_USAGE',
  amountMicros: n === 1 ? 10_000_000n : -1_800n * BigInt(n),
  balanceAfterMicros: 10_000_000n - 1_800n * BigInt(n),
  modelId: n === 1 ? null : 'gemini-2.5-flash-lite',
  providerKey: n === 1 ? null : 'google',
  benchmarkProvider: n === 1 ? null : 'openai',
  benchmarkMethodologyVersion: n === 1 ? null : 'sav-v1',
  actualCostUsdMicros: n === 1 ? null : 1_800n * BigInt(n),
  baselineCostUsdMicros: n === 1 ? null : 2_700n * BigInt(n),
  benchmarkPricingVersion: n === 1 ? null : 'pb-2026-11-01',
  createdAt: `2026-11-01T10:00:0${n}.000Z`,
  ...over,
});

/** Builds a correctly sealed chain of `count` rows. */
function chain(count: number, secret: string | Buffer = SECRET): SealedLedgerRow[] {
  const rows: SealedLedgerRow[] = [];
  let prev = GENESIS_HASH;
  for (let i = 1; i <= count; i++) {
    const p = payload(i);
    const sealHash = sealLedgerEntry(secret, prev, p);
    rows.push({ ...p, prevHash: prev, sealHash });
    prev = sealHash;
  }
  return rows;
}

describe('ledger payload', () => {
  test('customer labels for every event type', () => {
    assert.deepEqual(CUSTOMER_LABELS, { WALLET_TOPUP: 'Top-up', AI_USAGE: 'AI usage', REFUND: 'Refund', ADJUSTMENT: 'Adjustment' });
    for (const t of LEDGER_EVENT_TYPES) assert.ok(CUSTOMER_LABELS[t]);
  });

  test('every sealed column of the spec is in the payload', () => {
    assert.deepEqual([...SEALED_COLUMNS].sort(), Object.keys(payload(2)).sort());
  });

  test('ledgerPayloadOf keeps exactly the sealed columns and reads missing nullables as null', () => {
    const row = { ...payload(2), prevHash: GENESIS_HASH, sealHash: 'x', customerLabel: 'AI usage' };
    assert.deepEqual(Object.keys(ledgerPayloadOf(row)), [...SEALED_COLUMNS]);
    const { projectId: _dropped, ...withoutProject } = payload(2);
    assert.equal(ledgerPayloadOf(withoutProject as LedgerPayload).projectId, null);
  });

  test('validation: types, timestamp form and sign rules', () => {
    assert.equal(validateLedgerPayload(payload(1)).ok, true);
    assert.equal(validateLedgerPayload(payload(2)).ok, true);
    const cases: Array<[Partial<LedgerPayload>, string]> = [
      [{ amountMicros: 5n }, 'amountMicros'], // AI usage must be a debit
      [{ amountMicros: 1.5 as unknown as bigint }, 'amountMicros'],
      [{ createdAt: '2026-11-01T10:00:00Z' }, 'createdAt'],
      [{ createdAt: '2026-11-01 10:00:00.000+00' }, 'createdAt'],
      [{ eventType: 'BONUS' as LedgerPayload['eventType'] }, 'eventType'],
      [{ baselineCostUsdMicros: 3 as unknown as bigint }, 'baselineCostUsdMicros'],
      [{ tenantId: '' }, 'tenantId'],
    ];
    for (const [over, field] of cases) {
      const r = validateLedgerPayload(payload(2, over));
      assert.equal(r.ok, false, field);
      if (!r.ok) assert.equal(r.field, field);
    }
    // A refund returns a top-up's money to the card: a debit.
    assert.equal(validateLedgerPayload(payload(1, { eventType: 'REFUND', amountMicros: 1n })).ok, false);
    assert.equal(validateLedgerPayload(payload(1, { eventType: 'REFUND', amountMicros: -1n })).ok, true);
    assert.equal(validateLedgerPayload(payload(2, { eventType: 'ADJUSTMENT', amountMicros: 7n })).ok, true);
  });
});

describe('seal', () => {
  test('is lowercase hex HMAC-SHA256(secret, prevHash || canonicalJson(payload))', () => {
    const p = payload(2);
    // The canonical form written out by hand: sorted keys, bigint amounts as decimal strings.
    const expectedCanonical =
      '{"actualCostUsdMicros":"3600","amountMicros":"-3600","balanceAfterMicros":"9996400",' +
      '"baselineCostUsdMicros":"5400","benchmarkMethodologyVersion":"sav-v1",' +
      '"benchmarkPricingVersion":"pb-2026-11-01","benchmarkProvider":"openai",' +
      '"createdAt":"2026-11-01T10:00:02.000Z","eventType":"AI_USAGE",' +
      '"id":"00000000-0000-4000-8000-000000000002","modelId":"gemini-2.5-flash-lite",' +
      '"projectId":"7a7a7a7a-0000-4000-8000-000000000009","providerKey":"google",' +
      `"tenantId":"${TENANT}"}`;
    assert.equal(canonicalJson(p), expectedCanonical);
    const expected = createHmac('sha256', SECRET).update(GENESIS_HASH + expectedCanonical).digest('hex');
    const s = seal(SECRET, GENESIS_HASH, p);
    assert.equal(s, expected);
    assert.ok(isSealHash(s));
    assert.equal(sealLedgerEntry(SECRET, GENESIS_HASH, p), s);
  });

  test('depends on the secret, the previous hash and every sealed column', () => {
    const base = seal(SECRET, GENESIS_HASH, payload(2));
    assert.notEqual(seal('other-secret', GENESIS_HASH, payload(2)), base);
    assert.notEqual(seal(SECRET, 'f'.repeat(64), payload(2)), base);
    for (const k of SEALED_COLUMNS) {
      const p = payload(2) as unknown as Record<string, unknown>;
      const v = p[k];
      p[k] = typeof v === 'bigint' ? v + 1n : v === null ? 'x' : `${String(v)}x`;
      assert.notEqual(sealLedgerEntry(SECRET, GENESIS_HASH, p as unknown as LedgerPayload), base, k);
    }
  });

  test('a Buffer secret seals the same as the equal string', () => {
    assert.equal(seal(Buffer.from(SECRET), GENESIS_HASH, payload(1)), seal(SECRET, GENESIS_HASH, payload(1)));
  });

  test('refuses an empty secret or a malformed previous hash', () => {
    assert.throws(() => seal('', GENESIS_HASH, payload(1)), RangeError);
    assert.throws(() => seal(Buffer.alloc(0), GENESIS_HASH, payload(1)), RangeError);
    assert.throws(() => seal(SECRET, 'abc', payload(1)), RangeError);
    assert.throws(() => seal(SECRET, 'A'.repeat(64), payload(1)), RangeError);
  });

  test('extra row columns do not enter a ledger seal', () => {
    const p = payload(2);
    assert.equal(sealLedgerEntry(SECRET, GENESIS_HASH, { ...p, customerLabel: 'AI usage' } as LedgerPayload), seal(SECRET, GENESIS_HASH, p));
  });
});

describe('timingSafeEqualHex', () => {
  test('equal, different, case-insensitive, malformed', () => {
    assert.equal(GENESIS_HASH.length, 64);
    assert.equal(timingSafeEqualHex('00ff', '00ff'), true);
    assert.equal(timingSafeEqualHex('00ff', '00FF'), true);
    assert.equal(timingSafeEqualHex('00ff', '00fe'), false);
    assert.equal(timingSafeEqualHex('00ff', '00ff00'), false);
    assert.equal(timingSafeEqualHex('0zff', '0zff'), false);
    assert.equal(timingSafeEqualHex('abc', 'abc'), false); // odd length is not hex bytes
    assert.equal(timingSafeEqualHex('', ''), true);
  });
});

describe('verifyChain', () => {
  test('an intact chain verifies; an empty one too', () => {
    assert.deepEqual(verifyChain(chain(5), SECRET), { verified: true, firstBroken: null, checked: 5 });
    assert.deepEqual(verifyChain([], SECRET), { verified: true, firstBroken: null, checked: 0 });
    assert.equal(chain(1)[0].prevHash, GENESIS_HASH);
  });

  test('a tampered amount names exactly that row', () => {
    const rows = chain(5);
    rows[2] = { ...rows[2], amountMicros: rows[2].amountMicros + 1n };
    assert.deepEqual(verifyChain(rows, SECRET), { verified: false, firstBroken: rows[2].id, checked: 3 });
  });

  test('tampering any sealed column of a middle row is caught at that row', () => {
    for (const k of SEALED_COLUMNS) {
      const rows = chain(4);
      const r = rows[1] as unknown as Record<string, unknown>;
      const v = r[k];
      r[k] = typeof v === 'bigint' ? -v - 1n : v === null ? 'forged' : `${String(v)}0`;
      const result = verifyChain(rows, SECRET);
      assert.equal(result.verified, false, k);
      assert.equal(result.checked, 2, k);
    }
  });

  test('re-sealing a tampered row without the secret still fails there', () => {
    const rows = chain(4);
    const forged = { ...rows[1], amountMicros: -1n };
    forged.sealHash = sealLedgerEntry('attacker-guess', forged.prevHash, forged);
    rows[1] = forged;
    assert.equal(verifyChain(rows, SECRET).firstBroken, rows[1].id);
  });

  test('a re-sealed row (with the secret) breaks the link of the next row', () => {
    const rows = chain(4);
    const edited = { ...rows[1], amountMicros: -1n };
    edited.sealHash = sealLedgerEntry(SECRET, edited.prevHash, edited);
    rows[1] = edited;
    assert.deepEqual(verifyChain(rows, SECRET), { verified: false, firstBroken: rows[2].id, checked: 3 });
  });

  test('a deleted row breaks the following link; reordering breaks too', () => {
    const rows = chain(5);
    const deleted = [rows[0], rows[1], rows[3], rows[4]];
    assert.equal(verifyChain(deleted, SECRET).firstBroken, rows[3].id);
    const swapped = [rows[0], rows[2], rows[1], rows[3], rows[4]];
    assert.equal(verifyChain(swapped, SECRET).firstBroken, rows[2].id);
  });

  test('the first row must start from the genesis hash', () => {
    const rows = chain(3);
    assert.equal(verifyChain(rows.slice(1), SECRET).firstBroken, rows[1].id);
    // Verifying a later segment works when the caller supplies the last trusted hash.
    assert.deepEqual(verifyChain(rows.slice(1), SECRET, rows[0].sealHash), { verified: true, firstBroken: null, checked: 2 });
  });

  test('the wrong secret fails at the first row', () => {
    const rows = chain(3);
    assert.deepEqual(verifyChain(rows, 'wrong-secret'), { verified: false, firstBroken: rows[0].id, checked: 1 });
  });

  test('verification recomputes the HMAC, never a plain SHA-256 (the reference implementation\'s fault)', () => {
    // A row "sealed" the faulty way: SHA-256(prevHash || canonical payload), no secret involved.
    // Anyone with write access to the table could compute it, so it must not be accepted.
    const p = payload(1);
    const sha = createHash('sha256').update(GENESIS_HASH + canonicalJson(p)).digest('hex');
    const hmac = sealLedgerEntry(SECRET, GENESIS_HASH, p);
    assert.notEqual(sha, hmac);
    const shaRow: SealedLedgerRow = { ...p, prevHash: GENESIS_HASH, sealHash: sha };
    assert.deepEqual(verifyChain([shaRow], SECRET), { verified: false, firstBroken: p.id, checked: 1 });
    const hmacRow: SealedLedgerRow = { ...p, prevHash: GENESIS_HASH, sealHash: hmac };
    assert.deepEqual(verifyChain([hmacRow], SECRET), { verified: true, firstBroken: null, checked: 1 });
    // A forger who rebuilds a whole chain with SHA-256 is rejected at its first row.
    let prev = GENESIS_HASH;
    const forged: SealedLedgerRow[] = [1, 2, 3].map((n) => {
      const q = payload(n);
      const h = createHash('sha256').update(prev + canonicalJson(q)).digest('hex');
      const row = { ...q, prevHash: prev, sealHash: h };
      prev = h;
      return row;
    });
    assert.equal(verifyChain(forged, SECRET).firstBroken, forged[0].id);
  });

  test('a row whose stored nullable column comes back missing still verifies', () => {
    const rows = chain(2);
    const { modelId: _m, providerKey: _p, ...partial } = rows[0];
    assert.equal(verifyChain([partial as SealedLedgerRow, rows[1]], SECRET).verified, true);
  });

  test('a malformed stored row counts as broken instead of throwing', () => {
    const rows = chain(2);
    rows[1] = { ...rows[1], amountMicros: Number.NaN as unknown as bigint };
    assert.deepEqual(verifyChain(rows, SECRET), { verified: false, firstBroken: rows[1].id, checked: 2 });
  });
});

describe('verifyPayloadChain (chains over other payloads, e.g. the security audit log)', () => {
  const key = 'audit secret of at least 32 characters';
  const rows: Array<{ id: string; prevHash: string; sealHash: string; payload: unknown }> = [];
  let prev = GENESIS_HASH;
  for (let i = 0; i < 3; i++) {
    const payload = { id: `a${i}`, event: 'login', seq: String(i + 1) };
    const sealHash = seal(key, prev, payload);
    rows.push({ id: `a${i}`, prevHash: prev, sealHash, payload });
    prev = sealHash;
  }
  test('verifies an intact chain and names the first altered row', () => {
    assert.deepEqual(verifyPayloadChain(rows, key), { verified: true, firstBroken: null, checked: 3 });
    const altered = rows.map((r, i) => (i === 1 ? { ...r, payload: { ...(r.payload as object), event: 'logout' } } : r));
    assert.deepEqual(verifyPayloadChain(altered, key), { verified: false, firstBroken: 'a1', checked: 2 });
  });
});

describe('canonicalLedgerPayload (the seal builds a row\'s canonical text directly)', () => {
  // Strings that JSON escapes or that sort oddly: quotes, backslashes, control characters, a lone
  // surrogate, astral characters, non-ASCII letters.
  const ODD = ['', 'plain', 'quote " and \\ backslash', 'tab\tnew\nline\u0001\u001f', '\ud800 lone', '😀 astral', 'Ünïcödé', '\u2028\u2029', '</script>'];
  const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length];

  test('gives the same bytes as canonicalJson(ledgerPayloadOf(row)) on varied rows', () => {
    let n = 0;
    for (let i = 0; i < 400; i++) {
      const over: Record<string, unknown> = {};
      for (const [j, k] of SEALED_COLUMNS.entries()) {
        const r = (i * 7 + j * 13) % 5;
        if (k === 'amountMicros' || k === 'balanceAfterMicros') over[k] = BigInt(i * 1_000_003 - 200_000_000) * (r === 0 ? -1n : 1n);
        else if (k === 'actualCostUsdMicros' || k === 'baselineCostUsdMicros') over[k] = r === 0 ? null : r === 1 ? undefined : BigInt(i) * 9_007_199_254_740_993n;
        else if (r === 0 && k !== 'id' && k !== 'tenantId' && k !== 'eventType' && k !== 'createdAt') over[k] = null;
        else if (r === 1 && k !== 'id' && k !== 'tenantId' && k !== 'eventType' && k !== 'createdAt') over[k] = undefined;
        else over[k] = `${pick(ODD, i + j)}${i}`;
      }
      const row = { ...payload(2), ...over, extraColumn: 'not sealed' } as unknown as LedgerPayload;
      const direct = canonicalLedgerPayload(row);
      assert.equal(direct, canonicalJson(ledgerPayloadOf(row)), `row ${i}`);
      assert.equal(sealLedgerEntry(SECRET, GENESIS_HASH, row), seal(SECRET, GENESIS_HASH, ledgerPayloadOf(row)));
      n++;
    }
    assert.equal(n, 400);
  });

  test('leaves any other value to the general path, which seals it the same way as before', () => {
    const odd = [
      { ...payload(2), amountMicros: -1800 as unknown as bigint },
      { ...payload(2), id: undefined as unknown as string },
      { ...payload(2), createdAt: new Date('2026-11-01T10:00:02.000Z') as unknown as string },
    ];
    for (const row of odd) {
      assert.equal(canonicalLedgerPayload(row), undefined);
      assert.equal(sealLedgerEntry(SECRET, GENESIS_HASH, row), seal(SECRET, GENESIS_HASH, ledgerPayloadOf(row)));
    }
  });
});
