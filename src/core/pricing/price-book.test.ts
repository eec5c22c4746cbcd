import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { BRANDS, PROVIDER_KEYS } from '../providers.ts';
import { MODEL_CLASSES } from '../model-class.ts';
import { PRICE_BOOK, PRICE_BOOK_VERSION, CAPABILITIES, allModels, findModel, referenceModel, type PriceBook } from './price-book.ts';
import { checkRegistry } from './registry-check.ts';
import { publicCatalogue } from './catalogue.ts';

describe('price book data', () => {
  test('version string has the pb-YYYY-MM-DD form', () => {
    assert.match(PRICE_BOOK_VERSION, /^pb-\d{4}-\d{2}-\d{2}$/);
    assert.equal(PRICE_BOOK.version, PRICE_BOOK_VERSION);
  });

  test('every price is a non-negative bigint and every model is well formed', () => {
    for (const x of allModels()) {
      assert.equal(typeof x.inputMicrosPerMTok, 'bigint', x.id);
      assert.equal(typeof x.outputMicrosPerMTok, 'bigint', x.id);
      assert.ok(x.inputMicrosPerMTok >= 0n && x.outputMicrosPerMTok >= 0n, x.id);
      assert.ok(Number.isSafeInteger(x.contextWindow) && x.contextWindow > 0, x.id);
      assert.ok(x.maxOutputTokens > 0 && x.maxOutputTokens <= x.contextWindow, x.id);
      assert.ok(x.regions.length > 0, x.id);
      for (const c of x.capabilities) assert.ok((CAPABILITIES as readonly string[]).includes(c), `${x.id} ${c}`);
      assert.ok(x.capabilities.includes('streaming'), `${x.id} streams`);
    }
  });

  test('model ids are unique across providers', () => {
    const ids = allModels().map((x) => x.id);
    assert.equal(new Set(ids).size, ids.length);
  });

  test('each provider names a reference model per class, of that class', () => {
    for (const p of PROVIDER_KEYS) {
      for (const c of MODEL_CLASSES) {
        const ref = referenceModel(p, c);
        assert.ok(ref, `${p} ${c}`);
        assert.equal(ref.modelClass, c);
        assert.equal(ref.provider, p);
      }
    }
  });

  test('within a provider, reference models get dearer up the ladder (input + output)', () => {
    for (const p of PROVIDER_KEYS) {
      const blended = MODEL_CLASSES.map((c) => {
        const r = referenceModel(p, c)!;
        return r.inputMicrosPerMTok + r.outputMicrosPerMTok;
      });
      // Mistral's frontier reasoning model is priced near its premium one; allow equal-or-close
      // by checking economy < standard < premium strictly and frontier above standard.
      assert.ok(blended[0] < blended[1] && blended[1] < blended[2] && blended[3] > blended[1], p);
    }
  });

  test('lookups', () => {
    assert.equal(findModel('gpt-4o-mini')?.provider, 'openai');
    assert.equal(findModel('nope'), undefined);
    assert.equal(referenceModel('nope', 'economy'), undefined);
  });
});

describe('checkRegistry', () => {
  test('the shipped registry and price book agree', () => {
    const r = checkRegistry(BRANDS, PRICE_BOOK);
    assert.equal(r.ok, true);
    if (r.ok) {
      assert.deepEqual(r.value.providers, [...PROVIDER_KEYS].sort());
      assert.equal(r.value.pricingVersion, PRICE_BOOK_VERSION);
      assert.equal(r.value.models, allModels().length);
    }
  });

  test('a provider missing from the price book fails', () => {
    const { deepseek: _gone, ...rest } = PRICE_BOOK.providers;
    const r = checkRegistry(BRANDS, { ...PRICE_BOOK, providers: rest });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.code, 'REGISTRY_MISMATCH');
      assert.match(r.message, /deepseek is missing from price book/);
    }
  });

  test('a brand missing from the registry fails', () => {
    const { mistral: _gone, ...rest } = BRANDS;
    const r = checkRegistry(rest, PRICE_BOOK);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.code, 'REGISTRY_MISMATCH');
      assert.match(r.message, /mistral is missing from the brand registry/);
    }
  });

  test('a sixth provider on one side only fails', () => {
    const extra = { ...BRANDS, cohere: { key: 'cohere', name: 'Cohere' } };
    const r = checkRegistry(extra, PRICE_BOOK);
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.code, 'REGISTRY_MISMATCH');
  });

  test('the same six on both sides still fails: exactly five are expected', () => {
    const extraBrands = { ...BRANDS, cohere: { key: 'cohere', name: 'Cohere' } };
    const extraBook: PriceBook = {
      ...PRICE_BOOK,
      providers: { ...PRICE_BOOK.providers, cohere: { ...PRICE_BOOK.providers.mistral, provider: 'mistral' } },
    };
    const r = checkRegistry(extraBrands, extraBook);
    assert.equal(r.ok, false);
  });

  test('a missing reference class fails with MISSING_REFERENCE_MODEL', () => {
    const google = PRICE_BOOK.providers.google;
    const { frontier: _gone, ...partial } = google.reference;
    const book = {
      ...PRICE_BOOK,
      providers: { ...PRICE_BOOK.providers, google: { ...google, reference: partial } },
    } as unknown as PriceBook;
    const r = checkRegistry(BRANDS, book);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.code, 'MISSING_REFERENCE_MODEL');
      assert.match(r.message, /google names no frontier reference model/);
    }
  });

  test('a reference pointing at a model of another class fails', () => {
    const openai = PRICE_BOOK.providers.openai;
    const book: PriceBook = {
      ...PRICE_BOOK,
      providers: { ...PRICE_BOOK.providers, openai: { ...openai, reference: { ...openai.reference, premium: 'gpt-4o-mini' } } },
    };
    const r = checkRegistry(BRANDS, book);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.message, /openai premium reference gpt-4o-mini is a economy model/);
  });

  test('a reference pointing at an unknown model fails', () => {
    const openai = PRICE_BOOK.providers.openai;
    const book: PriceBook = {
      ...PRICE_BOOK,
      providers: { ...PRICE_BOOK.providers, openai: { ...openai, reference: { ...openai.reference, economy: 'gpt-3' } } },
    };
    const r = checkRegistry(BRANDS, book);
    assert.equal(r.ok, false);
    if (!r.ok) assert.equal(r.code, 'MISSING_REFERENCE_MODEL');
  });

  test('duplicate model ids make the book invalid', () => {
    const mistral = PRICE_BOOK.providers.mistral;
    const book: PriceBook = {
      ...PRICE_BOOK,
      providers: { ...PRICE_BOOK.providers, mistral: { ...mistral, models: [...mistral.models, mistral.models[0]] } },
    };
    const r = checkRegistry(BRANDS, book);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.code, 'INVALID_PRICE_BOOK');
      assert.match(r.message, /listed twice/);
    }
  });
});

describe('publicCatalogue', () => {
  const cat = publicCatalogue(BRANDS);

  test('lists every brand with its brand name and every model', () => {
    assert.equal(cat.pricingVersion, PRICE_BOOK_VERSION);
    assert.deepEqual(cat.brands.map((b) => b.provider), [...PROVIDER_KEYS]);
    assert.deepEqual(cat.brands.map((b) => b.brand), PROVIDER_KEYS.map((k) => BRANDS[k].name));
    assert.equal(cat.brands.reduce((n, b) => n + b.models.length, 0), allModels().length);
  });

  test('prices are exact decimal strings and nothing internal leaks', () => {
    const mini = cat.brands.find((b) => b.provider === 'openai')!.models.find((x) => x.id === 'gpt-4o-mini')!;
    assert.equal(mini.inputMicrosPerMillionTokens, '150000');
    assert.equal(mini.outputMicrosPerMillionTokens, '600000');
    assert.equal(mini.inputUsdPerMillionTokens, '0.15');
    assert.equal(mini.outputUsdPerMillionTokens, '0.6');
    assert.deepEqual(Object.keys(mini).sort(), [
      'capabilities',
      'contextWindow',
      'id',
      'inputMicrosPerMillionTokens',
      'inputUsdPerMillionTokens',
      'modelClass',
      'outputMicrosPerMillionTokens',
      'outputUsdPerMillionTokens',
    ]);
    // The projection is JSON-safe: no bigint survives into it.
    assert.doesNotThrow(() => JSON.stringify(cat));
  });
});
