// D9 cursor pages on the lists that were answered whole (docs/conformance.md leftovers): the
// activity feed (GET /api/tenant/insights/activity), the connectors' activity
// (GET /api/connector/activity, key-authenticated) and the integrations tiles
// (GET /api/projects/:id/integrations). Walking the pages must give exactly the unpaged list, in
// the same order, with no row twice and none missing, also when rows of the three feed sources
// (call log, ledger, alerts) share one timestamp (the test clock stands still), and while new rows
// arrive above the cursor.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { credit, startTestServer, tenantWithKey, type TestServer } from './harness.ts';

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
before(async () => {
  srv = await startTestServer({ worker: false });
  t = await tenantWithKey(srv);
  const openai = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
  for (let i = 0; i < 7; i++) {
    // Every second call lands on the same instant as the one before (ties across and within sources).
    if (i % 2 === 0) srv.clock.advance(1_000);
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `feed item ${i}` }] });
    if (i === 3) {
      await credit(srv, t.tenantId, 2_000_000n);
      // A balance alert at the same instant (the outbox row a threshold check writes).
      await srv.services.db
        .insertInto('event_outbox')
        .values({ tenant_id: t.tenantId, project_id: t.defaultProjectId, frame: JSON.stringify({ type: 'wallet.threshold', payload: { balance: '1', threshold: '2' } }), tenant_wide: true, created_at: srv.clock.now() } as never)
        .execute();
    }
  }
});
after(() => srv.close());

async function walk(path: string, limit: number, auth: { token?: string; headers?: Record<string, string> }) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const r: { status: number; body: any } = await srv.api('GET', `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, auth);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.data.items.length <= limit);
    for (const it of r.body.data.items) seen.push(it.id ?? it.tool);
    cursor = r.body.data.nextCursor;
    pages++;
    assert.ok(pages < 50, 'the walk ends');
  } while (cursor);
  return { seen, pages };
}

describe('D9 cursor pages', () => {
  test('the activity feed pages across call log, ledger and alerts exactly like the whole list', async () => {
    const whole = await srv.api('GET', '/api/tenant/insights/activity?limit=200', { token: t.accessToken });
    assert.equal(whole.body.data.nextCursor, null);
    const all = whole.body.data.items.map((i: { id: string }) => i.id);
    const kinds = new Set(whole.body.data.items.map((i: { kind: string }) => i.kind));
    assert.deepEqual([...kinds].sort(), ['ai_usage', 'alert', 'wallet']);
    assert.equal(all.length, 7 + 2 + 1, 'seven calls, the opening credit and the later one, one alert');
    for (const limit of [1, 2, 3, 4]) {
      const { seen, pages } = await walk('/api/tenant/insights/activity', limit, { token: t.accessToken });
      assert.deepEqual(seen, all, `limit ${limit}`);
      assert.equal(pages, Math.ceil(all.length / limit));
    }
    // A page taken, then new activity above it: the next page continues where the first ended.
    const first = await srv.api('GET', '/api/tenant/insights/activity?limit=4', { token: t.accessToken });
    srv.clock.advance(1_000);
    await credit(srv, t.tenantId, 1_000n);
    const rest = await walk(`/api/tenant/insights/activity?cursor=${encodeURIComponent(first.body.data.nextCursor)}`, 200, { token: t.accessToken });
    assert.deepEqual([...first.body.data.items.map((i: { id: string }) => i.id), ...rest.seen], all);
    // Filters page too.
    const calls = await walk('/api/tenant/insights/activity?channel=proxy', 3, { token: t.accessToken });
    assert.equal(calls.seen.length, 7);
  });

  test('a bad cursor is a 400 naming the cursor', async () => {
    for (const cursor of ['nonsense', Buffer.from(JSON.stringify({ at: '2026-01-01', src: 'c', k: 'x' })).toString('base64url')]) {
      const r = await srv.api('GET', `/api/tenant/insights/activity?cursor=${cursor}`, { token: t.accessToken });
      assert.equal(r.status, 400);
      assert.equal(r.body.field, 'cursor');
    }
    const i = await srv.api('GET', `/api/projects/${t.defaultProjectId}/integrations?cursor=${Buffer.from('{"tool":"nope"}').toString('base64url')}`, { token: t.accessToken });
    assert.equal(i.status, 400);
    assert.equal(i.body.field, 'cursor');
  });

  test('the connectors\' activity (service key) pages the key\'s project', async () => {
    const headers = { authorization: `Bearer ${t.key}` };
    const whole = await srv.api('GET', '/api/connector/activity?limit=50', { headers });
    assert.equal(whole.status, 200, JSON.stringify(whole.body));
    assert.equal(whole.body.data.nextCursor, null);
    const all = whole.body.data.items.map((i: { id: string }) => i.id);
    assert.equal(all.length, 7, 'the project\'s calls (wallet rows are tenant-wide)');
    const { seen, pages } = await walk('/api/connector/activity', 2, { headers });
    assert.deepEqual(seen, all);
    assert.equal(pages, 4);
  });

  test('the integrations tiles page in catalogue order', async () => {
    const whole = await srv.api('GET', `/api/projects/${t.defaultProjectId}/integrations`, { token: t.accessToken });
    assert.equal(whole.status, 200);
    assert.equal(whole.body.data.nextCursor, null);
    const all = whole.body.data.items.map((i: { tool: string }) => i.tool);
    assert.equal(all.length, 8);
    const { seen, pages } = await walk(`/api/projects/${t.defaultProjectId}/integrations`, 3, { token: t.accessToken });
    assert.deepEqual(seen, all);
    assert.equal(pages, 3);
  });
});
