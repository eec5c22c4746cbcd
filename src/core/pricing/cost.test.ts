import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  costMicros,
  reservationMicros,
  worstCaseCostMicros,
  savings,
  formatMicrosAsUsd,
  SAVINGS_METHODOLOGY_VERSION,
} from './cost.ts';
import { PRICE_BOOK, PRICE_BOOK_VERSION, findModel, type PricedModel } from './price-book.ts';

const model = (id: string): PricedModel => {
  const found = findModel(id);
  assert.ok(found, id);
  return found;
};

describe('costMicros', () => {
  test('whole micros need no rounding', () => {
    // gpt-4o-mini: 150,000 micros/MTok in, 600,000 out. 1M in + 1M out = 750,000 micros.
    assert.equal(costMicros(model('gpt-4o-mini'), { inputTokens: 1_000_000, outputTokens: 1_000_000 }), 750_000n);
    assert.equal(costMicros(model('gpt-4o-mini'), { inputTokens: 1000, outputTokens: 500 }), 450n);
  });

  test('fractional micros round up, once on the sum', () => {
    const prices = { inputMicrosPerMTok: 150_000n, outputMicrosPerMTok: 600_000n };
    // 1 input token = 0.15 micro → 1 micro.
    assert.equal(costMicros(prices, { inputTokens: 1, outputTokens: 0 }), 1n);
    // 3 in (0.45) + 1 out (0.6) = 1.05 micros → 2, while rounding each part up would give 1 + 1 = 2
    // here too; 2 in (0.3) + 1 out (0.6) = 0.9 → 1, where per-part rounding would give 2.
    assert.equal(costMicros(prices, { inputTokens: 3, outputTokens: 1 }), 2n);
    assert.equal(costMicros(prices, { inputTokens: 2, outputTokens: 1 }), 1n);
    // Exactly one micro stays one micro (no off-by-one from the ceiling).
    assert.equal(costMicros({ inputMicrosPerMTok: 1_000_000n, outputMicrosPerMTok: 0n }, { inputTokens: 1, outputTokens: 0 }), 1n);
    // One hair above a whole micro rounds up.
    assert.equal(
      costMicros({ inputMicrosPerMTok: 1_000_001n, outputMicrosPerMTok: 0n }, { inputTokens: 1, outputTokens: 0 }),
      2n,
    );
  });

  test('zero usage costs nothing', () => {
    assert.equal(costMicros(model('o3'), { inputTokens: 0, outputTokens: 0 }), 0n);
  });

  test('large counts stay exact beyond 2^53 intermediate products', () => {
    const prices = { inputMicrosPerMTok: 75_000_000n, outputMicrosPerMTok: 75_000_000n };
    const n = Number.MAX_SAFE_INTEGER;
    const expected = (BigInt(n) * 75_000_000n * 2n + 999_999n) / 1_000_000n;
    assert.equal(costMicros(prices, { inputTokens: n, outputTokens: n }), expected);
  });

  test('invalid token counts are programming errors', () => {
    const prices = model('gpt-4o');
    assert.throws(() => costMicros(prices, { inputTokens: -1, outputTokens: 0 }), RangeError);
    assert.throws(() => costMicros(prices, { inputTokens: 1.5, outputTokens: 0 }), RangeError);
    assert.throws(() => costMicros(prices, { inputTokens: 0, outputTokens: Number.NaN }), RangeError);
  });
});

describe('worstCaseCostMicros', () => {
  test('prices input plus the full output allowance', () => {
    const m = model('gpt-4.1');
    assert.equal(worstCaseCostMicros(m, 1000, 1000), costMicros(m, { inputTokens: 1000, outputTokens: 1000 }));
    assert.equal(worstCaseCostMicros(m, 1000, 1000), 10_000n);
  });

  test('caps output at what the model can produce', () => {
    const m = model('claude-3-5-haiku'); // 8,192 max output
    assert.equal(worstCaseCostMicros(m, 0, 1_000_000), costMicros(m, { inputTokens: 0, outputTokens: 8_192 }));
  });

  test('without a model cap the asked maximum is used', () => {
    const prices = { inputMicrosPerMTok: 1_000_000n, outputMicrosPerMTok: 2_000_000n };
    assert.equal(worstCaseCostMicros(prices, 10, 100_000), 200_010n);
  });

  test('is never below the real cost of a call that stayed within its limits', () => {
    const m = model('gemini-2.5-flash');
    for (const out of [0, 1, 77, 4096]) {
      assert.ok(worstCaseCostMicros(m, 500, 4096) >= costMicros(m, { inputTokens: 500, outputTokens: out }));
    }
  });

  test('rejects a negative allowance', () => {
    assert.throws(() => worstCaseCostMicros(model('gpt-4o'), 1, -5), RangeError);
  });
});

describe('reservationMicros', () => {
  const req = (maxTokens?: number) => ({
    shape: 'openai' as const,
    model: 'auto',
    stream: false,
    maxTokens,
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x'.repeat(4000) }] }],
  });

  test('estimated input plus the asked max_tokens', () => {
    const m = model('gpt-4.1');
    // 1000 text tokens + 4 message overhead = 1004 input tokens.
    assert.equal(reservationMicros(m, req(500)), costMicros(m, { inputTokens: 1004, outputTokens: 500 }));
  });

  test("the model's output limit when the client set none", () => {
    const m = model('claude-3-5-haiku');
    assert.equal(reservationMicros(m, req()), costMicros(m, { inputTokens: 1004, outputTokens: m.maxOutputTokens }));
  });
});

describe('savings (D7)', () => {
  const usage = { inputTokens: 10_000, outputTokens: 2_000 };

  test('positive savings against the benchmark reference model of the same class', () => {
    // Delivered on gemini-2.5-flash-lite (economy), benchmark OpenAI economy reference gpt-4o-mini.
    const s = savings({ actualModel: 'gemini-2.5-flash-lite', benchmarkProvider: 'openai', modelClass: 'economy', usage });
    // actual: 10k×0.10 + 2k×0.40 = 1000 + 800 = 1800 micros; baseline: 1500 + 1200 = 2700.
    assert.equal(s.actualCostMicros, 1_800n);
    assert.equal(s.baselineCostMicros, 2_700n);
    assert.equal(s.tokensSavedMicros, 900n);
    assert.equal(s.percentSavedBps, 3_333n); // 33.33 %
    assert.equal(s.methodologyVersion, SAVINGS_METHODOLOGY_VERSION);
    assert.equal(s.methodologyVersion, 'sav-v1');
    assert.equal(s.pricingVersion, PRICE_BOOK_VERSION);
  });

  test('negative savings when the delivered model costs more than the benchmark', () => {
    // Delivered on o3 (frontier) but benchmarked on DeepSeek's frontier reference.
    const s = savings({ actualModel: model('o3'), benchmarkProvider: 'deepseek', modelClass: 'frontier', usage });
    // actual: 10k×10 + 2k×40 = 100,000 + 80,000 = 180,000; baseline: 11,000 + 8,760 = 19,760.
    assert.equal(s.actualCostMicros, 180_000n);
    assert.equal(s.baselineCostMicros, 19_760n);
    assert.equal(s.tokensSavedMicros, -160_240n);
    // −160240/19760 = −8.1093… → −81093 bps (rounded half away from zero).
    assert.equal(s.percentSavedBps, -81_093n);
  });

  test('same model as the benchmark reference saves exactly zero', () => {
    const s = savings({ actualModel: 'claude-sonnet-4-5', benchmarkProvider: 'anthropic', modelClass: 'premium', usage });
    assert.equal(s.tokensSavedMicros, 0n);
    assert.equal(s.percentSavedBps, 0n);
  });

  test('null benchmark gives null savings, never a fabricated 0 %', () => {
    const s = savings({ actualModel: 'gpt-4o-mini', benchmarkProvider: null, modelClass: 'economy', usage });
    assert.equal(s.actualCostMicros, 2_700n);
    assert.equal(s.baselineCostMicros, null);
    assert.equal(s.tokensSavedMicros, null);
    assert.equal(s.percentSavedBps, null);
    assert.equal(s.methodologyVersion, 'sav-v1');
    assert.equal(s.pricingVersion, PRICE_BOOK_VERSION);
  });

  test('zero usage: baseline 0 makes the percentage undefined (null), not 0', () => {
    const s = savings({
      actualModel: 'gpt-4o',
      benchmarkProvider: 'google',
      modelClass: 'premium',
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    assert.equal(s.baselineCostMicros, 0n);
    assert.equal(s.tokensSavedMicros, 0n);
    assert.equal(s.percentSavedBps, null);
  });

  test('basis points round half away from zero', () => {
    // Baseline 8 micros, actual 7 → 1/8 = 12.5 % = 1250 bps exactly; need a half-bps case:
    // baseline 20000 micros, saved 1 → 0.5 bps → 1; saved −1 → −0.5 → −1.
    const book = {
      ...PRICE_BOOK,
      providers: {
        ...PRICE_BOOK.providers,
        openai: {
          ...PRICE_BOOK.providers.openai,
          models: PRICE_BOOK.providers.openai.models.map((x) =>
            x.id === 'gpt-4o-mini' ? { ...x, inputMicrosPerMTok: 20_000_000_000n, outputMicrosPerMTok: 0n } : x,
          ),
        },
      },
    };
    const cheaper = { id: 'x', inputMicrosPerMTok: 19_999_000_000n, outputMicrosPerMTok: 0n } as PricedModel;
    const dearer = { id: 'y', inputMicrosPerMTok: 20_001_000_000n, outputMicrosPerMTok: 0n } as PricedModel;
    const u = { inputTokens: 1, outputTokens: 0 };
    const a = savings({ actualModel: cheaper, benchmarkProvider: 'openai', modelClass: 'economy', usage: u }, book);
    assert.equal(a.baselineCostMicros, 20_000n);
    assert.equal(a.tokensSavedMicros, 1n);
    assert.equal(a.percentSavedBps, 1n);
    const b = savings({ actualModel: dearer, benchmarkProvider: 'openai', modelClass: 'economy', usage: u }, book);
    assert.equal(b.tokensSavedMicros, -1n);
    assert.equal(b.percentSavedBps, -1n);
  });

  test('unknown model ids are rejected loudly', () => {
    assert.throws(
      () => savings({ actualModel: 'gpt-99', benchmarkProvider: 'openai', modelClass: 'economy', usage }),
      /gpt-99/,
    );
  });

  test('savings carry no floating-point values', () => {
    const s = savings({ actualModel: 'mistral-small', benchmarkProvider: 'anthropic', modelClass: 'economy', usage });
    for (const v of [s.actualCostMicros, s.baselineCostMicros, s.tokensSavedMicros, s.percentSavedBps]) {
      assert.equal(typeof v, 'bigint');
    }
  });
});

describe('formatMicrosAsUsd', () => {
  test('exact decimals without floats', () => {
    assert.equal(formatMicrosAsUsd(150_000n), '0.15');
    assert.equal(formatMicrosAsUsd(75_000_000n), '75');
    assert.equal(formatMicrosAsUsd(1n), '0.000001');
    assert.equal(formatMicrosAsUsd(0n), '0');
    assert.equal(formatMicrosAsUsd(-2_500_000n), '-2.5');
    assert.equal(formatMicrosAsUsd(9_007_199_254_740_993_000_001n), '9007199254740993.000001');
  });
});
