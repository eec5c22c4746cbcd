// Issue 5 end to end: the inline check escalates a weak answer one rung at a time (at most twice),
// every attempt is debited and sealed, the user gets the best answer, routing.escalated is
// emitted; the asynchronous scorer writes the full QA score after the fact; Layer 3 derives rules
// from scores and Layers 1 and 2 follow them; the floor is settable per project; the Audit tab
// shows decisions, the rule change log and the export log.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../../test/harness.ts';
import { scorePending } from './scoring.ts';
import { deriveAndStore } from './rules.ts';
import { CLASS_SUPPRESS_MIN_SAMPLES, ESCALATE_MIN_SAMPLES } from '../../../core/quality/derive-rules.ts';
import { verifyLedger } from '../../money/ledger-view.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '10000', RATE_LIMIT_LOGIN_PER_MIN: '1000' } });
});
after(() => srv.close());

const RUNGS = ['economy', 'standard', 'premium', 'frontier'];
const prompt = (text: string) => ({ model: 'x', messages: [{ role: 'user' as const, content: text }] });

async function attemptsOf(tenantId: string) {
  const r = await sql<{ id: string; parent_call_id: string | null; attempt: number; escalated: boolean; model_class: string; status: string; ledger_entry_id: string | null; qa: Record<string, unknown> | null; routing_rules: string[] }>`
    select id, parent_call_id, attempt, escalated, model_class, status, ledger_entry_id, qa, routing_rules from call_logs where tenant_id = ${tenantId} order by created_at, attempt`.execute(srv.services.db);
  return r.rows;
}

describe('escalation up the ladder (D5)', () => {
  test('a refusal is retried one rung up; both attempts are debited and sealed; the user gets the good answer', async () => {
    const t = await tenantWithKey(srv);
    srv.sim.faults.add({ answer: 'refusal', times: 1, promptIncludes: 'ESC-ONE' });
    const { data, response } = await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 })
      .chat.completions.create(prompt('ESC-ONE: say hello to the team in one friendly sentence.'))
      .withResponse();
    srv.sim.faults.clear();
    assert.doesNotMatch(data.choices[0].message.content!, /can(no|')t help|unable to/i, 'the user receives the better answer');
    const rows = await attemptsOf(t.tenantId);
    assert.equal(rows.length, 2);
    assert.equal(rows[0].escalated, true);
    assert.equal(rows[1].escalated, false);
    assert.equal(rows[1].parent_call_id, rows[0].id);
    assert.equal(RUNGS.indexOf(rows[1].model_class), RUNGS.indexOf(rows[0].model_class) + 1, 'one rung up');
    assert.ok(rows.every((r) => r.ledger_entry_id), 'every attempt has its sealed AI_USAGE entry');
    assert.equal(response.headers.get('x-service-call-id'), rows[1].id);
    assert.equal(response.headers.get('x-service-model-class'), rows[1].model_class);
    const v = await verifyLedger(srv.services.db, srv.services.secrets.ledger, t.tenantId);
    assert.equal(v.verified, true);
    const ev = await sql<{ frame: { type: string; payload: Record<string, unknown> } }>`
      select frame from event_outbox where tenant_id = ${t.tenantId} and frame->>'type' = 'routing.escalated'`.execute(srv.services.db);
    assert.equal(ev.rows.length, 1);
    assert.equal(ev.rows[0].frame.payload.callId, rows[0].id);
    assert.equal(ev.rows[0].frame.payload.toClass, rows[1].model_class);
  });

  test('when every rung fails: at most two escalations, three attempts all debited, the best answer returned', async () => {
    const t = await tenantWithKey(srv);
    srv.sim.faults.add({ answer: 'refusal', promptIncludes: 'ESC-ALL' });
    const r = await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create(prompt('ESC-ALL: say hello to the team in one friendly sentence.'));
    srv.sim.faults.clear();
    assert.ok(r.choices[0].message.content, 'an answer is still returned');
    const rows = await attemptsOf(t.tenantId);
    assert.equal(rows.length, 3);
    assert.deepEqual(rows.map((x) => x.escalated), [true, true, false]);
    assert.deepEqual(rows.map((x) => x.attempt), [1, 2, 3]);
    const classes = rows.map((x) => RUNGS.indexOf(x.model_class));
    assert.ok(classes[0] < classes[1] && classes[1] < classes[2], `climbs: ${rows.map((x) => x.model_class)}`);
    const debits = await sql<{ n: bigint }>`select count(*) as n from ledger_entries where tenant_id = ${t.tenantId} and event_type = 'AI_USAGE'`.execute(srv.services.db);
    assert.equal(debits.rows[0].n, 3n);
  });

  test('a good answer is not escalated, and a streamed bad answer is never re-sent', async () => {
    const t = await tenantWithKey(srv);
    const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    await client.chat.completions.create(prompt('Say hello to the team in one friendly sentence.'));
    srv.sim.faults.add({ answer: 'refusal', promptIncludes: 'ESC-STREAM' });
    const stream = await client.chat.completions.create({ ...prompt('ESC-STREAM: say hello.'), stream: true });
    for await (const _ of stream);
    srv.sim.faults.clear();
    const rows = await attemptsOf(t.tenantId);
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => !r.escalated && r.attempt === 1));
  });
});

describe('QA scores (D5a) and Layer 3', () => {
  test('judge off: a non-streamed call is scored by its own settlement (call log, ledger entry, outbox event), and the scorer never scores it again', async () => {
    const t = await tenantWithKey(srv);
    await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create(prompt('Summarise: the cat sat on the mat.'));
    // Read at once, before any job has had a chance to run: the settlement wrote the score.
    const scoredAt = async (id: string) =>
      (await sql<{ qa_scored_at: Date | null; created_at: Date }>`select qa_scored_at, created_at from call_logs where id = ${id}`.execute(srv.services.db)).rows[0];
    const [row] = await attemptsOf(t.tenantId);
    assert.ok(row.qa, 'scored by the settlement');
    assert.equal(row.qa!.method, 'inline');
    assert.equal(row.qa!.version, 'qa-v1');
    assert.equal(row.qa!.floor, 0.6);
    assert.equal(typeof row.qa!.belowFloor, 'boolean');
    assert.ok(Array.isArray(row.qa!.reasons));
    const first = await scoredAt(row.id);
    assert.ok(first.qa_scored_at, 'marked scored');
    assert.equal(first.qa_scored_at!.getTime(), first.created_at.getTime(), 'scored in the settlement itself, at its time');
    // The asynchronous scorer has nothing of this call to claim, and running it changes nothing.
    while ((await scorePending(srv.services)) > 0);
    const [again] = await attemptsOf(t.tenantId);
    assert.deepEqual(again.qa, row.qa);
    assert.equal((await scoredAt(row.id)).qa_scored_at!.getTime(), first.qa_scored_at!.getTime(), 'not re-scored');
    for (const k of ['accuracy', 'structure', 'hallucinationRisk', 'instructionFidelity', 'overall']) {
      const v = row.qa![k] as number;
      assert.ok(typeof v === 'number' && v >= 0 && v <= 1, `${k}=${v}`);
    }
    const l = await sql<{ qa: unknown }>`select qa from ledger_entries where call_id = ${row.id}`.execute(srv.services.db);
    assert.deepEqual(l.rows[0].qa, row.qa);
    // The learning outbox's event (spec §4 LearningOutboxEvent) carries the same score, through its view.
    const o = await srv.services.db.selectFrom('learning_outbox_events').select(['quality_score', 'request', 'model_id']).where('call_id', '=', row.id).executeTakeFirstOrThrow();
    assert.deepEqual(o.quality_score, row.qa);
    assert.ok(o.request && o.model_id);
    assert.equal((await verifyLedger(srv.services.db, srv.services.secrets.ledger, t.tenantId)).verified, true, 'the QA score is not part of the seal');
    const q = await srv.services.boss.getQueue('qa.score');
    assert.equal(q?.policy, 'singleton');
  });

  test('a streamed call is scored asynchronously afterwards, judge or not (its text is complete only after the response)', async () => {
    const t = await tenantWithKey(srv);
    const stream = await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create({ ...prompt('Summarise: the dog slept by the door.'), stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.ok(text.length > 0);
    const [before] = await attemptsOf(t.tenantId);
    assert.equal(before.qa, null, 'not scored by the settlement');
    while ((await scorePending(srv.services)) > 0);
    const [after] = await attemptsOf(t.tenantId);
    assert.equal(after.qa?.method, 'inline');
    const l = await sql<{ qa: unknown }>`select qa from ledger_entries where call_id = ${after.id}`.execute(srv.services.db);
    assert.deepEqual(l.rows[0].qa, after.qa);
  });

  test('scores below the floor mint a rule that Layer 1 follows on the next call, with a change log', async () => {
    const t = await tenantWithKey(srv);
    const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const ask = prompt('Say hello to the team in one friendly sentence.');
    const first = await client.chat.completions.create(ask).withResponse();
    const baseClass = first.response.headers.get('x-service-model-class')!;
    const [seed] = await attemptsOf(t.tenantId);
    const fam = (await sql<{ task_family: string }>`select task_family from call_logs where id = ${seed.id}`.execute(srv.services.db)).rows[0].task_family;
    // History: this family keeps escalating from its class (enough samples for both rule kinds).
    const n = Math.max(CLASS_SUPPRESS_MIN_SAMPLES, ESCALATE_MIN_SAMPLES) + 5;
    const now = srv.clock.now();
    for (let i = 0; i < n; i++) {
      await sql`insert into call_logs (id, tenant_id, project_id, status, channel, task_family, model_class, provider_key, model_id, region, escalated, qa, created_at)
        values (${randomUUID()}, ${t.tenantId}, ${t.defaultProjectId}, 'succeeded', 'proxy:chat', ${fam}, ${baseClass}, 'openai', ${`m-${i % 3}`}, 'us', true,
                ${JSON.stringify({ overall: 0.2, belowFloor: true })}::jsonb, ${now})`.execute(srv.services.db);
    }
    const r = await deriveAndStore(srv.services);
    assert.ok(r && r.added > 0, 'rules were minted');
    await srv.services.rules.refresh();
    const second = await client.chat.completions.create(ask).withResponse();
    const newClass = second.response.headers.get('x-service-model-class')!;
    assert.ok(RUNGS.indexOf(newClass) > RUNGS.indexOf(baseClass), `${baseClass} → ${newClass}`);
    const last = (await attemptsOf(t.tenantId)).find((x) => x.id === second.response.headers.get('x-service-call-id'))!;
    assert.ok(last.routing_rules.length > 0, 'the applied rule ids are on the call-log row');

    const audit = await srv.api('GET', '/api/tenant/insights/audit', { token: t.accessToken });
    assert.equal(audit.status, 200);
    const log = audit.body.data.changeLog as Array<{ change: string; ruleId: string; reason: string }>;
    assert.ok(log.some((c) => c.change === 'added' && last.routing_rules.includes(c.ruleId) && c.reason.length > 0));
    assert.ok(audit.body.data.decisions.escalatedAttempts >= n);
    // Nothing changed since: a second run mints no new version.
    const again = await deriveAndStore(srv.services);
    assert.ok(again === null || again.added === 0);
  });
});

describe('per-project settings and the Audit tab', () => {
  test('raising the quality floor takes effect on the next call', async () => {
    const t = await tenantWithKey(srv);
    const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const ask = prompt('Translate "good morning" into French.');
    const low = await srv.api('PATCH', `/api/projects/${t.defaultProjectId}`, { token: t.accessToken, body: { qualityFloor: 0.3 } });
    assert.equal(low.status, 200);
    const a = (await client.chat.completions.create(ask).withResponse()).response.headers.get('x-service-model-class')!;
    await srv.api('PATCH', `/api/projects/${t.defaultProjectId}`, { token: t.accessToken, body: { qualityFloor: 0.95 } });
    const b = (await client.chat.completions.create(ask).withResponse()).response.headers.get('x-service-model-class')!;
    assert.ok(RUNGS.indexOf(b) > RUNGS.indexOf(a), `floor 0.3 → ${a}, floor 0.95 → ${b}`);
  });

  test('a ledger export is a CSV of customer columns and appears in the export log', async () => {
    const t = await tenantWithKey(srv);
    await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create(prompt('Hello there.'));
    const res = await fetch(`${srv.url}/api/tenant/ledger/export`, { headers: { authorization: `Bearer ${t.accessToken}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /text\/csv/);
    const csv = await res.text();
    const lines = csv.trim().split('\r\n');
    assert.equal(lines.length, 3, 'header, the credit and the AI usage entry');
    assert.match(lines[0], /^id,createdAt,label,/);
    assert.ok(csv.includes('AI usage') && csv.includes('Adjustment'));
    assert.equal(/gpt|claude|gemini|AI_USAGE/.test(csv), false, 'no model ids and no internal codes');
    const audit = await srv.api('GET', '/api/tenant/insights/audit', { token: t.accessToken });
    assert.deepEqual(audit.body.data.exportLog.map((e: { kind: string; rows: number }) => [e.kind, e.rows]), [['ledger.csv', 2]]);
    assert.ok(audit.body.data.decisions.deliveryPaths.length >= 1);
  });
});

describe('each bad answer of the simulated upstream', () => {
  // Each case asks for what the bad answer then violates, so the inline check has something to hold it to.
  const cases = [
    { answer: 'empty', text: 'Say hello to the team in one friendly sentence.' },
    { answer: 'refusal', text: 'Say hello to the team in one friendly sentence.' },
    { answer: 'bad_json', text: 'Return a JSON object with a field "greeting".', json: true },
    // The simulator answers in the language asked for, so the retry (French) passes.
    { answer: 'wrong_language', text: 'Answer in French: what is the capital of Italy?' },
  ] as const;
  for (const c of cases) {
    test(`${c.answer} → escalated one rung, the retry answers`, async () => {
      const t = await tenantWithKey(srv);
      const tag = `BAD-${c.answer}`;
      srv.sim.faults.add({ answer: c.answer, times: 1, promptIncludes: tag });
      await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create({
        model: 'x',
        messages: [{ role: 'user', content: `${tag}: ${c.text}` }],
        ...('json' in c ? { response_format: { type: 'json_object' as const } } : {}),
      });
      srv.sim.faults.clear();
      const rows = await attemptsOf(t.tenantId);
      const expected = [true, false];
      assert.deepEqual(rows.map((r) => r.escalated), expected, `${c.answer}: ${JSON.stringify(rows.map((r) => r.model_class))}`);
    });
  }
});

describe('the judge model (QA_JUDGE_ENABLED)', () => {
  test('off by default; with the setting the scorer asks a judge through the service, billed on its own channel', async () => {
    assert.equal(srv.services.config.QA_JUDGE_ENABLED, false);
    const judged = await startTestServer({ env: { QA_JUDGE_ENABLED: 'true', RATE_LIMIT_CHAT_PER_MIN: '10000' } });
    try {
      const t = await tenantWithKey(judged);
      await new OpenAI({ baseURL: `${judged.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create(prompt('Name two rivers in Europe.'));
      while ((await scorePending(judged.services)) > 0);
      const rows = await sql<{ channel: string; qa: Record<string, unknown> | null }>`
        select channel, qa from call_logs where tenant_id = ${t.tenantId} order by channel`.execute(judged.services.db);
      const main = rows.rows.find((r) => r.channel === 'proxy:chat')!;
      const judge = rows.rows.find((r) => r.channel === 'qa:judge');
      assert.ok(judge, 'the judge call went through the service and is in the call log');
      assert.equal(main.qa?.method, 'inline+judge');
      assert.notEqual(judge!.qa?.method, 'inline+judge', 'the judge is never judged in turn');
    } finally {
      await judged.close();
    }
  });
});
