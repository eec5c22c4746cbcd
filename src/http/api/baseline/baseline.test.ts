// The benchmark provider (D7, spec §1 rules 4-5): GET/PATCH /api/tenant/baseline, and the start-up
// check that refuses to run when the brand registry and the price book disagree.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { memberOf, newTenant } from '../../../../test/money.ts';
import { loadConfig } from '../../../config.ts';
import { assertRegistry, startRuntime } from '../../../runtime/runtime.ts';
import { BRANDS } from '../../../core/providers.ts';
import { PRICE_BOOK, type PriceBook } from '../../../core/pricing/index.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());
const s = () => srv.services;

describe('GET/PATCH /api/tenant/baseline', () => {
  test('unset until chosen; one of the five keys; admins change it, members read it; per tenant', async () => {
    const t = await newTenant(s());
    const other = await newTenant(s());
    const get = await srv.api('GET', '/api/tenant/baseline', { token: t.accessToken });
    assert.deepEqual(get.body, { success: true, data: { providerKey: null, brand: null } });
    for (const [key, brand] of [
      ['openai', 'OpenAI'],
      ['anthropic', 'Anthropic'],
      ['google', 'Google'],
      ['mistral', 'Mistral'],
      ['deepseek', 'DeepSeek'],
    ]) {
      const r = await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: key } });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data, { providerKey: key, brand });
    }
    for (const body of [{ providerKey: 'OpenAI' }, { providerKey: 'cohere' }, { providerKey: null }, {}, { providerKey: 'openai', brand: 'x' }]) {
      const r = await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.field, Object.keys(body).length === 2 ? 'brand' : 'providerKey');
    }
    const viewer = await memberOf(s(), t.tenantId, 'viewer');
    const member = await memberOf(s(), t.tenantId, 'member');
    assert.equal((await srv.api('PATCH', '/api/tenant/baseline', { token: viewer.accessToken, body: { providerKey: 'openai' } })).status, 403);
    assert.equal((await srv.api('PATCH', '/api/tenant/baseline', { token: member.accessToken, body: { providerKey: 'openai' } })).status, 403);
    assert.deepEqual((await srv.api('GET', '/api/tenant/baseline', { token: viewer.accessToken })).body.data, { providerKey: 'deepseek', brand: 'DeepSeek' });
    const admin = await memberOf(s(), t.tenantId, 'admin');
    assert.equal((await srv.api('PATCH', '/api/tenant/baseline', { token: admin.accessToken, body: { providerKey: 'google' } })).status, 200);
    assert.deepEqual((await srv.api('GET', '/api/tenant/baseline', { token: other.accessToken })).body.data, { providerKey: null, brand: null });
  });
});

describe('start-up registry check (spec §1 rule 4)', () => {
  test('the shipped brand registry and price book agree', () => {
    assert.doesNotThrow(() => assertRegistry(BRANDS, PRICE_BOOK));
  });

  test('the service refuses to start when a provider is missing from either side, or lacks a reference model', async () => {
    const { deepseek: _gone, ...fourBrands } = BRANDS;
    const { deepseek: _alsoGone, ...fourProviders } = PRICE_BOOK.providers;
    const noReference: PriceBook = {
      ...PRICE_BOOK,
      providers: { ...PRICE_BOOK.providers, mistral: { ...PRICE_BOOK.providers.mistral, reference: { ...PRICE_BOOK.providers.mistral.reference, frontier: 'nope' } } },
    };
    const db = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-registry-'));
    const cfg = loadConfig({ DATABASE_URL: db.url, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: randomBytes(32).toString('hex'), LEDGER_SECRET: randomBytes(32).toString('hex') });
    try {
      await assert.rejects(startRuntime(cfg, { registry: { brands: fourBrands, priceBook: PRICE_BOOK } }), /REGISTRY_MISMATCH.*deepseek is missing from the brand registry/);
      await assert.rejects(startRuntime(cfg, { registry: { brands: BRANDS, priceBook: { ...PRICE_BOOK, providers: fourProviders } } }), /REGISTRY_MISMATCH.*brand deepseek is missing from price book/);
      await assert.rejects(startRuntime(cfg, { registry: { brands: BRANDS, priceBook: noReference } }), /MISSING_REFERENCE_MODEL.*mistral frontier reference nope/);
      // With the real registry the same configuration starts.
      const rt = await startRuntime(cfg, { http: false });
      await rt.close();
    } finally {
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
