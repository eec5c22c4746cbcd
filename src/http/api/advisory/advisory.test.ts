// Advisory import (D14 tier 6) against the real server, worker and PostgreSQL: NDJSON of the three
// wire shapes and OpenAI Batch output, CSV, malformed lines listed by number, the arithmetic of
// every row, the report's locked vocabulary with and without a benchmark provider, CSV export,
// key and token uploads, tenant isolation, the row cap, and no upstream call or wallet movement.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../../test/harness.ts';
import { eventually } from '../../../../test/helpers.ts';
import { openStream } from '../../../../test/sse-client.ts';
import { costMicros } from '../../../core/pricing/cost.ts';
import { findModel, referenceModel } from '../../../core/pricing/price-book.ts';
import type { ModelClass } from '../../../core/model-class.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

const CODING = 'Write a TypeScript function that parses an ISO 8601 duration like P3DT4H and returns milliseconds; include unit tests with edge cases.';
const TRANSLATE = 'Translate into French: "The meeting is moved to Thursday at 10am, please bring the quarterly figures."';

function openaiLine(prompt: string, model: string, tin: number, tout: number) {
  return JSON.stringify({
    timestamp: '2026-10-01T12:00:00Z',
    request: { model, messages: [{ role: 'user', content: prompt }] },
    response: { id: 'chatcmpl-1', object: 'chat.completion', created: 1759320000, model, choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: tin, completion_tokens: tout, total_tokens: tin + tout } },
  });
}
function anthropicLine(prompt: string, model: string, tin: number, tout: number) {
  return JSON.stringify({
    request: { model, max_tokens: 512, messages: [{ role: 'user', content: prompt }] },
    response: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: tin, output_tokens: tout } },
  });
}
function geminiLine(prompt: string, model: string, tin: number, tout: number) {
  return JSON.stringify({
    model,
    request: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
    response: { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }], modelVersion: model, usageMetadata: { promptTokenCount: tin, candidatesTokenCount: tout, totalTokenCount: tin + tout } },
  });
}
function batchLine(answer: string, model: string, tin: number, tout: number) {
  return JSON.stringify({
    id: 'batch_req_1',
    custom_id: 'req-1',
    response: { status_code: 200, request_id: 'r1', body: { id: 'chatcmpl-b', object: 'chat.completion', created: 1759320000, model, choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }], usage: { prompt_tokens: tin, completion_tokens: tout, total_tokens: tin + tout } } },
    error: null,
  });
}

const NDJSON = [
  openaiLine(CODING, 'gpt-4o-2024-08-06', 1200, 800), // 1: dated id → gpt-4o
  anthropicLine(TRANSLATE, 'claude-sonnet-4-5-20250929', 300, 90), // 2
  '', // 3: blank, skipped
  geminiLine('Summarise this paragraph in one sentence: the committee met twice and agreed on the budget.', 'gemini-2.5-pro', 400, 60), // 4
  batchLine('```python\ndef add(a, b):\n    return a + b\n```', 'gpt-4o-mini', 250, 120), // 5
  '{"request": {"messages": []}, "response": {"nope": true}}', // 6: malformed
  'this is not json', // 7: malformed
  openaiLine(CODING, 'some-model-we-do-not-price', 10, 10), // 8: malformed, unknown model
].join('\n');

const CSV = [
  'timestamp,provider,model,prompt,completion,input_tokens,output_tokens',
  `2026-10-02T08:00:00Z,openai,gpt-4o,"${CODING.replace(/"/g, '""')}",ok,1000,500`,
  '2026-10-02T08:01:00Z,anthropic,claude-opus-4-1,"Hello, how are you today?",fine,20,15',
  '2026-10-02T08:02:00Z,openai,gpt-4o,prompt,completion,lots,5',
  '2026-10-02T08:03:00Z,google,gemini-2.5-flash,,completion,5,5',
].join('\n');

async function upload(token: string, body: string, query = '', contentType = 'application/x-ndjson') {
  return srv.api('POST', `/api/advisory/imports${query}`, { token, body, headers: { 'content-type': contentType } });
}

async function finished(token: string, id: string) {
  return eventually(async () => {
    const r = await srv.api('GET', `/api/advisory/imports/${id}`, { token });
    return r.body.data?.status === 'done' || r.body.data?.status === 'failed' ? r.body.data : undefined;
  }, 20_000, 'the import to finish');
}

async function moneyOf(tenantId: string) {
  const db = srv.services.db;
  const w = await db.selectFrom('wallets').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  const l = await db.selectFrom('ledger_entries').select((e) => e.fn.countAll<string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  const c = await db.selectFrom('call_logs').select((e) => e.fn.countAll<string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return { wallet: JSON.stringify(w, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)), ledger: String(l.n), calls: String(c.n) };
}

describe('POST /api/advisory/imports and the report', () => {
  test('NDJSON of the three shapes and Batch output: every row classified and priced three ways, malformed lines listed, nothing spent', async () => {
    const t = await tenantWithKey(srv);
    assert.equal((await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'anthropic' } })).status, 200);
    const before = await moneyOf(t.tenantId);
    const simBefore = srv.sim.stats.total;
    const events = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken });

    const up = await upload(t.key, NDJSON, '?filename=history.ndjson');
    assert.equal(up.status, 202, JSON.stringify(up.body));
    assert.equal(up.body.data.format, 'ndjson');
    assert.equal(up.body.data.filename, 'history.ndjson');
    assert.deepEqual([up.body.data.progress.totalRows, up.body.data.progress.malformedRows], [7, 3]);
    assert.equal(up.body.data.reportUrl, `/api/advisory/imports/${up.body.data.id}`);

    const rep = await finished(t.key, up.body.data.id);
    assert.equal(rep.status, 'done');
    assert.deepEqual(rep.progress, { totalRows: 7, processedRows: 4, malformedRows: 3, percent: 100 });
    assert.deepEqual(rep.benchmark, { providerKey: 'anthropic', brand: 'Anthropic' });
    assert.equal(rep.equivalentLabel, 'Anthropic-equivalent burn');
    assert.equal(rep.benchmarkPrompt, null);
    assert.deepEqual(rep.malformed.items.map((m: { line: number }) => m.line), [6, 7, 8]);
    assert.match(rep.malformed.items[2].error, /not in the price book/);

    const done = rep.rows.items.filter((r: { status: string }) => r.status === 'done');
    assert.deepEqual(done.map((r: { line: number }) => r.line), [1, 2, 4, 5]);
    assert.deepEqual(done.map((r: { model: string }) => r.model), ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-4o-mini']);
    const tokens = [[1200, 800], [300, 90], [400, 60], [250, 120]];
    let sumHist = 0n, sumWould = 0n, sumBase = 0n;
    done.forEach((r: Record<string, string>, i: number) => {
      const usage = { inputTokens: tokens[i][0], outputTokens: tokens[i][1] };
      assert.equal(r.historicalCost, costMicros(findModel(r.model)!, usage).toString(), `line ${r.line} historical`);
      const would = findModel(r.wouldHaveModel)!;
      assert.equal(would.modelClass, r.modelClass, 'the would-have model serves the chosen class');
      assert.equal(r.wouldHaveCost, costMicros(would, usage).toString());
      const base = costMicros(referenceModel('anthropic', r.modelClass as ModelClass)!, usage);
      assert.equal(r.equivalentBurn, base.toString());
      assert.equal(r.tokensSaved, (base - BigInt(r.wouldHaveCost)).toString());
      assert.ok(r.taskFamily && r.complexity);
      sumHist += BigInt(r.historicalCost);
      sumWould += BigInt(r.wouldHaveCost);
      sumBase += base;
    });
    assert.equal(done[0].taskFamily, 'coding');
    assert.equal(done[1].taskFamily, 'translation');
    assert.deepEqual(
      [rep.totals.calls, rep.totals.historicalCost, rep.totals.wouldHaveCost, rep.totals.equivalentBurn, rep.totals.tokensSaved],
      [4, sumHist.toString(), sumWould.toString(), sumBase.toString(), (sumBase - sumWould).toString()],
    );
    assert.equal(rep.totals.percentSavedBps, (((sumBase - sumWould) * 10_000n) / sumBase).toString());
    const famCalls = rep.byTaskFamily.reduce((a: number, f: { calls: number }) => a + f.calls, 0);
    const cxCalls = rep.byComplexity.reduce((a: number, f: { calls: number }) => a + f.calls, 0);
    assert.deepEqual([famCalls, cxCalls], [4, 4]);
    assert.ok(rep.byTaskFamily.some((f: { taskFamily: string }) => f.taskFamily === 'coding'));

    // Progress reached the project's event stream, ending with `done`.
    const frame = await events.next((r) => r.event === 'advisory.progress' && JSON.parse(r.data).payload.status === 'done', 10_000);
    assert.deepEqual(JSON.parse(frame.data).payload, { importId: rep.id, status: 'done', totalRows: 7, processedRows: 4, malformedRows: 3 });
    events.close();

    // Read-only: no upstream call, no wallet movement, no ledger entry, no call row.
    assert.equal(srv.sim.stats.total, simBefore);
    assert.deepEqual(await moneyOf(t.tenantId), before);

    // CSV export: every line, malformed ones with their reason.
    const csv = await fetch(`${srv.url}/api/advisory/imports/${rep.id}/export`, { headers: { authorization: `Bearer ${t.accessToken}` } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = (await csv.text()).trim().split('\r\n');
    assert.equal(lines[0], 'line,status,error,occurred_at,prompt_excerpt,provider,model,task_family,complexity,model_class,would_have_model,historical_cost,would_have_cost,equivalent_burn,tokens_saved,percent_saved_bps');
    assert.equal(lines.length, 1 + 7);
    assert.match(lines[1], /^1,done,,2026-10-01T12:00:00.000Z,/);
    assert.match(lines[5], /^6,malformed,/);
  });

  test('CSV by token, with no benchmark provider: savings are null and the report says how to choose one', async () => {
    const t = await tenantWithKey(srv);
    const up = await upload(t.accessToken, CSV, '', 'text/csv');
    assert.equal(up.status, 202, JSON.stringify(up.body));
    assert.equal(up.body.data.format, 'csv');
    const rep = await finished(t.accessToken, up.body.data.id);
    assert.deepEqual(rep.progress, { totalRows: 4, processedRows: 2, malformedRows: 2, percent: 100 });
    assert.deepEqual(rep.malformed.items, [
      { line: 4, error: 'input_tokens is not a non-negative integer' },
      { line: 5, error: 'prompt is empty: nothing to classify' },
    ]);
    assert.equal(rep.benchmark, null);
    assert.equal(rep.equivalentLabel, 'Benchmark-equivalent burn');
    assert.match(rep.benchmarkPrompt, /benchmark provider/);
    assert.deepEqual([rep.totals.equivalentBurn, rep.totals.tokensSaved, rep.totals.percentSavedBps], [null, null, null]);
    for (const f of rep.byTaskFamily) assert.equal(f.percentSavedBps, null);
    const first = rep.rows.items[0];
    assert.deepEqual([first.line, first.model, first.historicalCost, first.tokensSaved], [2, 'gpt-4o', costMicros(findModel('gpt-4o')!, { inputTokens: 1000, outputTokens: 500 }).toString(), null]);
    assert.equal(first.taskFamily, 'coding');

    // Pages of rows by line cursor, and only the malformed ones.
    const p1 = await srv.api('GET', `/api/advisory/imports/${rep.id}?limit=2`, { token: t.accessToken });
    assert.deepEqual([p1.body.data.rows.items.map((r: { line: number }) => r.line), p1.body.data.rows.nextCursor], [[2, 3], '3']);
    const p2 = await srv.api('GET', `/api/advisory/imports/${rep.id}?limit=2&cursor=3`, { token: t.accessToken });
    assert.deepEqual([p2.body.data.rows.items.map((r: { line: number }) => r.line), p2.body.data.rows.nextCursor], [[4, 5], null]);
    const bad = await srv.api('GET', `/api/advisory/imports/${rep.id}?only=malformed`, { token: t.accessToken });
    assert.deepEqual(bad.body.data.rows.items.map((r: { line: number }) => r.line), [4, 5]);

    const list = await srv.api('GET', '/api/advisory/imports', { token: t.accessToken });
    assert.deepEqual(list.body.data.items.map((i: { id: string }) => i.id), [rep.id]);
  });

  test('another tenant cannot see an import; a key sees its own project only', async () => {
    const a = await tenantWithKey(srv);
    const b = await tenantWithKey(srv);
    const up = await upload(a.key, CSV);
    assert.equal(up.status, 202);
    for (const token of [b.accessToken, b.key]) {
      const r = await srv.api('GET', `/api/advisory/imports/${up.body.data.id}`, { token });
      assert.equal(r.status, 404);
      assert.equal(r.body.success, false);
      assert.equal((await srv.api('GET', `/api/advisory/imports/${up.body.data.id}/export`, { token })).status, 404);
      assert.deepEqual((await srv.api('GET', '/api/advisory/imports', { token })).body.data.items, []);
    }
  });

  test('bad uploads get a clear error and leave nothing behind', async () => {
    const t = await tenantWithKey(srv);
    const empty = await upload(t.key, '');
    assert.equal(empty.status, 400);
    assert.match(empty.body.error, /no rows/);
    const header = await upload(t.key, 'when,who,what\n1,2,3\n', '', 'text/csv');
    assert.equal(header.status, 400);
    assert.match(header.body.error, /header lacks timestamp, provider, model, prompt, completion, input_tokens, output_tokens/);
    const viewer = await srv.api('POST', '/api/advisory/imports?format=sideways', { token: t.key, body: 'x' });
    assert.equal(viewer.status, 400);
    // 100,001 rows is one too many: refused, and no partial import is kept.
    const many = Array.from({ length: 100_001 }, () => '{}').join('\n');
    const big = await upload(t.key, many);
    assert.equal(big.status, 413);
    assert.match(big.body.error, /more than 100,000 rows/);
    assert.deepEqual((await srv.api('GET', '/api/advisory/imports', { token: t.accessToken })).body.data.items, []);
    const rows = await sql`select id from advisory_imports where tenant_id = ${t.tenantId}`.execute(srv.services.db);
    assert.deepEqual(rows.rows, []);
  });
});
