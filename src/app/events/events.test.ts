// The event types of D10 emitted by the functions their producers call (the proxy pipeline, the
// wallet and top-up code, the integrations connection test), each checked on the project stream
// through the real bus; the stage machine of D4 with a stage.changed for every move.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { signupTenant, startTestServer, type TestServer } from '../../../test/harness.ts';
import { addMember, eventually, outboxMails, tenantIdOf } from '../../../test/helpers.ts';
import { startReceiver, verifyServiceSignature, type Receiver } from '../../../test/webhook-receiver.ts';
import type { BusMessage } from '../../infra/bus/bus.ts';
import { MIN_GAP_MS } from './outbox.ts';
import { buildFrame, EVENT_TYPES, enqueueLlmCall, isValidLlmCallPayload, kickOutbox, llmCallFrame, llmCallPayload, PAYLOAD_SCHEMAS, type LlmCallFacts, type PayloadOf } from './events.ts';
import { advanceStage, budgetAvailable, budgetExhausted, connectorDisconnected, emitWalletTopup, walletExhausted } from '../projects/stages.ts';
import { emitRoutingEscalated } from './notifications.ts';

let srv: TestServer;
let rx: Receiver;
before(async () => {
  srv = await startTestServer({ env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', RATE_LIMIT_LOGIN_PER_MIN: '100' } });
  rx = await startReceiver();
});
after(async () => {
  await srv.close();
  await rx.close();
});

/** Subscribe to a project's stream on the server's bus; `take(type)` returns the next frame of that type. */
async function watch(projectId: string) {
  const got: BusMessage[] = [];
  const un = srv.services.bus.subscribe(projectId, null, (m) => got.push(m));
  await un.ready;
  let taken = 0;
  return {
    got,
    stop: un,
    async take(type: string) {
      return eventually(async () => {
        const i = got.findIndex((m, k) => k >= taken && m.frame.type === type);
        if (i === -1) return undefined;
        taken = i + 1;
        return got[i].frame;
      }, 3_000, type);
    },
    types: () => got.map((m) => m.frame.type),
  };
}

async function tenant() {
  const t = await signupTenant(srv);
  return { ...t, tenantId: await tenantIdOf(srv, t.userId) };
}

const call = (over: Partial<LlmCallFacts> = {}): LlmCallFacts => ({
  callId: randomUUID(),
  modelClass: 'standard',
  taskFamily: 'coding',
  complexity: 'medium',
  inputTokens: 1200,
  outputTokens: 350,
  costMicros: 4_321n,
  savingsTokens: null,
  escalated: false,
  latencyMs: 812.4,
  channel: 'proxy',
  ...over,
});

test('every D10 event type has a payload schema', () => {
  assert.deepEqual([...EVENT_TYPES].sort(), [
    'advisory.progress',
    'budget.exhausted',
    'connector.connected',
    'connector.disconnected',
    'llm.call',
    'presence.heartbeat',
    'routing.escalated',
    'runway.threshold',
    'stage.changed',
    'wallet.threshold',
    'wallet.topup',
  ]);
  for (const t of EVENT_TYPES) assert.ok(PAYLOAD_SCHEMAS[t], t);
});

describe('llm.call (proxy pipeline: enqueueLlmCall in the settlement transaction, then kickOutbox)', () => {
  test('payload per D10: integer strings for amounts, savingsTokens null without a benchmark; committed with the settlement', async () => {
    const t = await tenant();
    const w = await watch(t.defaultProjectId);
    const s = srv.services;
    const facts = call({ savingsTokens: null });
    await s.db.transaction().execute(async (tx) => {
      await enqueueLlmCall(tx, { tenantId: t.tenantId, projectId: t.defaultProjectId, at: s.clock.now(), call: facts });
      await advanceStage(s, tx, t.defaultProjectId, 'billed_call');
    });
    kickOutbox(s);
    const f = await w.take('llm.call');
    assert.deepEqual(f.payload, {
      callId: facts.callId,
      modelClass: 'standard',
      taskFamily: 'coding',
      complexity: 'medium',
      inputTokens: 1200,
      outputTokens: 350,
      costMicros: '4321',
      savingsTokens: null,
      escalated: false,
      latencyMs: 812,
      channel: 'proxy',
    });
    assert.equal(f.actorUserId, null);
    assert.deepEqual((await w.take('stage.changed')).payload, { from: 'onboarding', to: 'live', reason: 'billed_call' });
    assert.equal(llmCallPayload(call({ savingsTokens: -25n })).savingsTokens, '-25', 'savings may be negative (D7)');
    w.stop();
  });

  test('a malformed payload is refused in the producer, before anything is written', async () => {
    const t = await tenant();
    assert.throws(() => llmCallPayload(call({ modelClass: 'gpt-4o' as never })), /modelClass/);
    assert.throws(() => llmCallPayload(call({ inputTokens: -1 })), /inputTokens/);
    await assert.rejects(
      srv.services.db.transaction().execute((tx) =>
        enqueueLlmCall(tx, { tenantId: t.tenantId, projectId: t.defaultProjectId, at: srv.clock.now(), call: call({ channel: 'fax' as never }) }),
      ),
      /channel/,
    );
    const rows = await srv.services.db.selectFrom('event_outbox').select('id').where('tenant_id', '=', t.tenantId).execute();
    assert.equal(rows.length, 0);
  });

  test("the hot path's written-out check of llm.call agrees with the schema, and the frame is buildFrame's", () => {
    const valid = llmCallPayload(call({}));
    const broken: Array<Record<string, unknown>> = [
      { callId: 'not-a-uuid' },
      { callId: randomUUID().toUpperCase() },
      { callId: '00000000-0000-0000-0000-000000000000' },
      { callId: 42 },
      { modelClass: 'gpt-4o' },
      { taskFamily: 'gardening' },
      { complexity: 'extreme' },
      { inputTokens: -1 },
      { inputTokens: 1.5 },
      { inputTokens: 2 ** 53 },
      { inputTokens: Number.NaN },
      { outputTokens: '12' },
      { costMicros: '-1' },
      { costMicros: '1'.repeat(20) },
      { costMicros: '12a' },
      { costMicros: 12 },
      { savingsTokens: '-25' },
      { savingsTokens: '--25' },
      { savingsTokens: undefined },
      { escalated: 'false' },
      { latencyMs: -0 },
      { latencyMs: -3 },
      { channel: 'fax' },
      { channel: 'mcp' },
    ];
    for (const change of [{}, ...broken]) {
      const p = { ...valid, ...change } as PayloadOf<'llm.call'>;
      assert.equal(isValidLlmCallPayload(p), PAYLOAD_SCHEMAS['llm.call'].safeParse(p).success, JSON.stringify(change));
    }
    const at = srv.clock.now();
    const e = { tenantId: randomUUID(), projectId: randomUUID(), at, call: call({ savingsTokens: 7n }) };
    const built = buildFrame({ type: 'llm.call', tenantId: e.tenantId, projectId: e.projectId, actorUserId: null, at, payload: llmCallPayload(e.call) });
    assert.equal(JSON.stringify(llmCallFrame(e)), JSON.stringify(built), 'same frame, same key order (it is also the webhook body)');
  });
});

describe('the outbox relay', () => {
  /** Commit one llm.call event in its own transaction, then kick the relay, as a settlement does. */
  async function commitAndKick(t: { tenantId: string; defaultProjectId: string }, c: LlmCallFacts) {
    const s = srv.services;
    await s.db.transaction().execute((tx) => enqueueLlmCall(tx, { tenantId: t.tenantId, projectId: t.defaultProjectId, at: s.clock.now(), call: c }));
    kickOutbox(s);
  }

  /** A tenant watching its stream, and a way to count the relay's passes and time since now. */
  async function relayRun() {
    const t = await tenant();
    const w = await watch(t.defaultProjectId);
    const passes0 = srv.services.outbox.stats.passes;
    const t0 = performance.now();
    return { t, w, passesSince: () => ({ passes: srv.services.outbox.stats.passes - passes0, elapsed: performance.now() - t0 }) };
  }

  test('one batch of two tenants: deliveries only to the webhook subscribed to the type, every frame on its stream in order', async () => {
    const s = srv.services;
    const a = await tenant();
    const b = await tenant();
    // a subscribes to llm.call; b has webhooks, but none for llm.call (one disabled, one for top-ups).
    await srv.api('POST', '/api/webhooks', { token: a.accessToken, body: { url: `${rx.url}/relay-a`, events: ['llm.call'] } });
    const off = await srv.api('POST', '/api/webhooks', { token: b.accessToken, body: { url: `${rx.url}/relay-b-off`, events: ['llm.call'] } });
    assert.equal(off.status, 201, JSON.stringify(off.body));
    const patched = await srv.api('PATCH', `/api/webhooks/${off.body.data.webhook.id}`, { token: b.accessToken, body: { enabled: false } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await srv.api('POST', '/api/webhooks', { token: b.accessToken, body: { url: `${rx.url}/relay-b-topup`, events: ['wallet.topup'] } });
    const wa = await watch(a.defaultProjectId);
    const wb = await watch(b.defaultProjectId);
    const [ca, cb1, cb2] = [call(), call(), call()];
    const hookedBefore = s.outbox.stats.hooked;
    await s.db.transaction().execute(async (tx) => {
      await enqueueLlmCall(tx, { tenantId: b.tenantId, projectId: b.defaultProjectId, at: s.clock.now(), call: cb1 });
      await enqueueLlmCall(tx, { tenantId: a.tenantId, projectId: a.defaultProjectId, at: s.clock.now(), call: ca });
      await enqueueLlmCall(tx, { tenantId: b.tenantId, projectId: b.defaultProjectId, at: s.clock.now(), call: cb2 });
    });
    kickOutbox(s);
    assert.equal((await wa.take('llm.call')).payload.callId, ca.callId);
    assert.deepEqual([(await wb.take('llm.call')).payload.callId, (await wb.take('llm.call')).payload.callId], [cb1.callId, cb2.callId]);
    const got = await eventually(async () => rx.received.find((r) => r.path === '/relay-a'), 3_000, 'delivery to a');
    assert.equal(JSON.parse(got.body.toString()).payload.callId, ca.callId);
    assert.ok(s.outbox.stats.hooked > hookedBefore, 'the batch with a subscribed webhook went through the deliveries');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.received.filter((r) => r.path === '/relay-a').length, 1);
    assert.equal(rx.received.filter((r) => r.path.startsWith('/relay-b')).length, 0);
    const bDeliveries = await s.db.selectFrom('webhook_deliveries').select('id').where('tenant_id', '=', b.tenantId).execute();
    assert.equal(bDeliveries.length, 0);
    const pending = await s.db.selectFrom('event_outbox').select('id').where('tenant_id', 'in', [a.tenantId, b.tenantId]).where('published_at', 'is', null).execute();
    assert.equal(pending.length, 0);
    // A batch of b's rows alone needs no webhook query: the claim said none subscribes.
    const hookedAfter = s.outbox.stats.hooked;
    const cb3 = call();
    await commitAndKick(b, cb3);
    assert.equal((await wb.take('llm.call')).payload.callId, cb3.callId);
    assert.equal(s.outbox.stats.hooked, hookedAfter, 'no deliveries step for rows no webhook subscribes to');
    wa.stop();
    wb.stop();
  });

  test(`kicks from commits in quick succession share passes started at least ${MIN_GAP_MS} ms apart`, async () => {
    const { t, w, passesSince } = await relayRun();
    const calls = Array.from({ length: 40 }, () => call());
    // Forty settlements committing at once, each kicking the relay after its commit.
    await Promise.all(calls.map((c) => commitAndKick(t, c)));
    const seen = new Set<string>();
    for (let i = 0; i < calls.length; i++) seen.add((await w.take('llm.call')).payload.callId as string);
    assert.deepEqual([...seen].sort(), calls.map((c) => c.callId).sort(), 'every event once');
    const { passes, elapsed } = passesSince();
    // At most one pass per gap, plus the pass in flight at the start and one poll.
    assert.ok(passes <= Math.ceil(elapsed / MIN_GAP_MS) + 2, `${passes} passes in ${elapsed.toFixed(0)} ms`);
    assert.ok(passes < calls.length, `${passes} passes for ${calls.length} commits`);
    w.stop();
  });

  test(`an idle relay also waits ${MIN_GAP_MS} ms after its last pass: calls one at a time share passes`, async () => {
    const { t, w, passesSince } = await relayRun();
    const calls = Array.from({ length: 30 }, () => call());
    // One commit at a time, as one connection's calls come: each finds the relay idle.
    for (const c of calls) {
      await commitAndKick(t, c);
      await new Promise((r) => setTimeout(r, 2));
    }
    for (const c of calls) assert.equal((await w.take('llm.call')).payload.callId, c.callId);
    const { passes, elapsed } = passesSince();
    const bound = Math.ceil(elapsed / MIN_GAP_MS) + 2;
    assert.ok(passes <= bound, `${passes} passes in ${elapsed.toFixed(0)} ms`);
    // Where the time allows fewer passes than commits (not on a machine where one commit takes
    // longer than the gap), there were fewer: a pass per commit is what the gap prevents.
    if (bound < calls.length) assert.ok(passes < calls.length, `${passes} passes for ${calls.length} commits`);
    w.stop();
  });
});

describe('stage.changed (D4)', () => {
  test('onboarding → connected → live → paused (wallet) → live → paused (budget) → live, one event per move', async () => {
    const t = await tenant();
    const s = srv.services;
    const p = t.defaultProjectId;
    const w = await watch(p);
    const stage = async () => (await s.db.selectFrom('projects').select(['stage', 'paused_for']).where('id', '=', p).executeTakeFirstOrThrow());
    assert.deepEqual(await advanceStage(s, null, p, 'call'), { from: 'onboarding', to: 'connected', pausedFor: null, reason: 'call' });
    assert.equal(await advanceStage(s, null, p, 'call'), null, 'no move, no event');
    assert.equal(await advanceStage(s, null, p, 'connection_test'), null);
    await advanceStage(s, null, p, 'billed_call');
    assert.equal((await stage()).stage, 'live');
    assert.equal((await walletExhausted(s, null, t.tenantId)).length, 1);
    assert.deepEqual(await stage(), { stage: 'paused', paused_for: 'wallet' });
    assert.equal(await advanceStage(s, null, p, 'budget_available'), null, 'a budget change does not resume a wallet pause');
    await emitWalletTopup(s, null, { tenantId: t.tenantId, actorUserId: t.userId, ledgerEntryId: randomUUID(), amountMicros: 5_000_000n, balanceAfterMicros: 5_000_000n });
    assert.equal((await stage()).stage, 'live');
    assert.equal(await budgetExhausted(s, null, { tenantId: t.tenantId, projectId: p, monthlyBudgetMicros: 1_000_000n, spentMicros: 1_000_250n, month: '2026-11' }), true);
    assert.equal(await budgetExhausted(s, null, { tenantId: t.tenantId, projectId: p, monthlyBudgetMicros: 1_000_000n, spentMicros: 1_000_900n, month: '2026-11' }), false, 'once until the budget is available again');
    assert.deepEqual(await stage(), { stage: 'paused', paused_for: 'budget' });
    await emitWalletTopup(s, null, { tenantId: t.tenantId, ledgerEntryId: randomUUID(), amountMicros: 1n, balanceAfterMicros: 5_000_001n });
    assert.equal((await stage()).stage, 'paused', 'a top-up does not resume a budget pause');
    await budgetAvailable(s, null, p);
    assert.deepEqual(await stage(), { stage: 'live', paused_for: null });

    const moves = [];
    for (let i = 0; i < 6; i++) moves.push((await w.take('stage.changed')).payload);
    assert.deepEqual(moves, [
      { from: 'onboarding', to: 'connected', reason: 'call' },
      { from: 'connected', to: 'live', reason: 'billed_call' },
      { from: 'live', to: 'paused', reason: 'wallet_exhausted' },
      { from: 'paused', to: 'live', reason: 'wallet_funded' },
      { from: 'live', to: 'paused', reason: 'budget_exhausted' },
      { from: 'paused', to: 'live', reason: 'budget_available' },
    ]);
    const exhausted = w.got.filter((m) => m.frame.type === 'budget.exhausted');
    assert.equal(exhausted.length, 1);
    assert.deepEqual(exhausted[0].frame.payload, { monthlyBudgetMicros: '1000000', spentMicros: '1000250', month: '2026-11' });
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(w.got.filter((m) => m.frame.type === 'stage.changed').length, 6, 'exactly one event per move');
    w.stop();
  });

  test('concurrent callers move a stage once', async () => {
    const t = await tenant();
    const s = srv.services;
    const w = await watch(t.defaultProjectId);
    const moves = await Promise.all(Array.from({ length: 8 }, () => advanceStage(s, null, t.defaultProjectId, 'billed_call')));
    assert.equal(moves.filter(Boolean).length, 1);
    await w.take('stage.changed');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(w.got.filter((m) => m.frame.type === 'stage.changed').length, 1);
    w.stop();
  });
});

describe('wallet, connector and routing events', () => {
  test('wallet.topup goes on every project stream of the tenant and to each subscribed webhook once', async () => {
    const t = await tenant();
    const other = (await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name: 'second' } })).body.data.id;
    const hook = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}/topups`, events: ['wallet.topup'] } });
    const w1 = await watch(t.defaultProjectId);
    const w2 = await watch(other);
    const entry = randomUUID();
    const before = rx.received.length;
    await emitWalletTopup(srv.services, null, { tenantId: t.tenantId, actorUserId: t.userId, ledgerEntryId: entry, amountMicros: 25_000_000n, balanceAfterMicros: 30_000_000n });
    const f1 = await w1.take('wallet.topup');
    const f2 = await w2.take('wallet.topup');
    assert.deepEqual(f1.payload, { ledgerEntryId: entry, amountMicros: '25000000', balanceAfterMicros: '30000000' });
    assert.deepEqual([f1.projectId, f2.projectId], [t.defaultProjectId, other]);
    assert.equal(f1.actorUserId, t.userId);
    const [req] = (await rx.waitFor(before + 1)).slice(before);
    assert.ok(verifyServiceSignature(hook.body.data.secret, req));
    assert.equal(JSON.parse(req.body.toString()).type, 'wallet.topup');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.received.filter((r) => r.path === '/topups').length, 1, 'one delivery per event, not per project');
    w1.stop();
    w2.stop();
  });

  test('connector.disconnected', async () => {
    const t = await tenant();
    const w = await watch(t.defaultProjectId);
    await connectorDisconnected(srv.services, null, { tenantId: t.tenantId, projectId: t.defaultProjectId, tool: 'vscode', tier: 2, reason: 'key_revoked', actorUserId: t.userId });
    assert.deepEqual((await w.take('connector.disconnected')).payload, { tool: 'vscode', tier: 2, reason: 'key_revoked' });
    w.stop();
  });

  test('routing.escalated reaches the stream and e-mails members who asked for escalation alerts', async () => {
    const t = await tenant();
    const quiet = await signupTenant(srv);
    await addMember(srv, t, quiet, 'viewer');
    assert.equal((await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { escalationAlert: true } })).status, 200);
    const w = await watch(t.defaultProjectId);
    const callId = randomUUID();
    await emitRoutingEscalated(srv.services, null, {
      tenantId: t.tenantId,
      projectId: t.defaultProjectId,
      payload: { callId, fromClass: 'economy', toClass: 'standard', attempt: 1, reason: 'below the quality floor', qualityScore: 0.41 },
    });
    assert.deepEqual((await w.take('routing.escalated')).payload, { callId, fromClass: 'economy', toClass: 'standard', attempt: 1, reason: 'below the quality floor', qualityScore: 0.41 });
    const mail = await eventually(async () => (await outboxMails(srv.dataDir)).find((m) => m.includes(`To: ${t.email}`) && m.includes('was escalated')));
    assert.match(mail, /Subject: A call in Default project was escalated/);
    assert.match(mail, /one class up \(economy/);
    assert.ok(!(await outboxMails(srv.dataDir)).some((m) => m.includes(`To: ${quiet.email}`) && m.includes('escalated')), 'members without the alert get nothing');
    w.stop();
  });

  test('an escalation whose reason quotes what jsonb refuses (NUL, a lone surrogate) still commits with its settlement', async () => {
    const t = await tenant();
    const w = await watch(t.defaultProjectId);
    const callId = randomUUID();
    await srv.services.db.transaction().execute((tx) =>
      emitRoutingEscalated(srv.services, tx, {
        tenantId: t.tenantId,
        projectId: t.defaultProjectId,
        payload: { callId, fromClass: 'economy', toClass: 'standard', attempt: 1, reason: 'overconfident_claim: a\u0000b \ud800', qualityScore: 0.3 },
      }),
    );
    kickOutbox(srv.services);
    assert.equal((await w.take('routing.escalated')).payload.reason, 'overconfident_claim: a\ufffdb \ufffd');
    w.stop();
  });
});
