// Operations that move a project's stage (D4) and the events that go with them: connectors
// connecting, budgets and the wallet running out and coming back, top-ups. Each takes the
// caller's transaction when the move must commit with the caller's write (settlement, top-up),
// or null to run in its own transaction (then the outbox is kicked here). With a transaction,
// the caller kicks the outbox after its commit: `kickOutbox(s)`.
import type { Services } from '../shared/index.ts';
import type { Tx } from '../../store/db.ts';
import { nextStage, type StageEvent, type StageMove } from '../../core/stage.ts';
import { enqueueEventInTx, kickOutbox } from '../events/index.ts';
import { clearBudgetExhausted, lockStage, markBudgetExhausted, projectIdsInStage, setStage, stageOf } from './projects.repo.ts';

type TxOrNull = Tx | null;

/** Run `fn` in the caller's transaction, or in a new one followed by an outbox kick. */
async function inTx<T>(s: Services, tx: TxOrNull, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (tx) return fn(tx);
  const r = await s.db.transaction().execute(fn);
  kickOutbox(s);
  return r;
}

/**
 * Apply `event` to the project's stage; on a move, store it and emit `stage.changed {from, to,
 * reason}`. Returns the move, or null when the stage does not change. Cheap when nothing moves
 * (one read, no lock), so the pipeline may call it on every call ('call', 'billed_call').
 */
export async function advanceStage(
  s: Services,
  tx: TxOrNull,
  projectId: string,
  event: StageEvent,
  opts: { actorUserId?: string | null; at?: Date } = {},
): Promise<StageMove | null> {
  const current = await stageOf(tx ?? s.db, projectId);
  if (!current || !nextStage({ stage: current.stage, pausedFor: current.paused_for }, event)) return null;
  return inTx(s, tx, async (t) => {
    // Decide again under the row lock: another call may have moved the stage meanwhile.
    const p = await lockStage(t, projectId);
    const move = nextStage({ stage: p.stage, pausedFor: p.paused_for }, event);
    if (!move) return null;
    const at = opts.at ?? s.clock.now();
    await setStage(t, projectId, { stage: move.to, pausedFor: move.pausedFor, at });
    await enqueueEventInTx(t, {
      type: 'stage.changed',
      tenantId: p.tenant_id,
      projectId,
      actorUserId: opts.actorUserId ?? null,
      at,
      payload: { from: move.from, to: move.to, reason: move.reason },
    });
    return move;
  });
}

export interface ConnectorInput {
  tenantId: string;
  projectId: string;
  /** The tool of the integrations tile, e.g. 'cursor', 'claude-desktop'. */
  tool: string;
  /** Connector tier 1..6 (spec §1), when known. */
  tier: number | null;
  /** What established or ended the connection, e.g. 'connection_test', 'first_call', 'key_revoked'. */
  reason: string;
  actorUserId?: string | null;
}

function connectorEvent(t: Tx, type: 'connector.connected' | 'connector.disconnected', c: ConnectorInput, at: Date) {
  return enqueueEventInTx(t, {
    type,
    tenantId: c.tenantId,
    projectId: c.projectId,
    actorUserId: c.actorUserId ?? null,
    at,
    payload: { tool: c.tool, tier: c.tier, reason: c.reason },
  });
}

/** A connector works (successful connection test or first call): `connector.connected`, and onboarding → connected. */
export async function connectorConnected(s: Services, tx: TxOrNull, c: ConnectorInput): Promise<void> {
  await inTx(s, tx, async (t) => {
    const at = s.clock.now();
    await connectorEvent(t, 'connector.connected', c, at);
    await advanceStage(s, t, c.projectId, c.reason === 'connection_test' ? 'connection_test' : 'call', { actorUserId: c.actorUserId, at });
  });
}

/** A connector stopped working or was removed: `connector.disconnected`. */
export async function connectorDisconnected(s: Services, tx: TxOrNull, c: ConnectorInput): Promise<void> {
  await inTx(s, tx, (t) => connectorEvent(t, 'connector.disconnected', c, s.clock.now()));
}

/**
 * The project's monthly budget cannot cover more calls: `budget.exhausted` once (until
 * budgetAvailable), and live → paused. Returns whether the event was emitted.
 */
export async function budgetExhausted(
  s: Services,
  tx: TxOrNull,
  b: { tenantId: string; projectId: string; monthlyBudgetMicros: bigint; spentMicros: bigint; month: string; actorUserId?: string | null },
): Promise<boolean> {
  return inTx(s, tx, async (t) => {
    const at = s.clock.now();
    if (!(await markBudgetExhausted(t, b.tenantId, b.projectId, at))) return false;
    await enqueueEventInTx(t, {
      type: 'budget.exhausted',
      tenantId: b.tenantId,
      projectId: b.projectId,
      actorUserId: b.actorUserId ?? null,
      at,
      payload: { monthlyBudgetMicros: b.monthlyBudgetMicros.toString(), spentMicros: b.spentMicros.toString(), month: b.month },
    });
    await advanceStage(s, t, b.projectId, 'budget_exhausted', { actorUserId: b.actorUserId, at });
    return true;
  });
}

/** The budget covers calls again (raised, or a new month): re-arms budget.exhausted and paused → live. */
export async function budgetAvailable(s: Services, tx: TxOrNull, projectId: string, opts: { actorUserId?: string | null } = {}): Promise<void> {
  await inTx(s, tx, async (t) => {
    await clearBudgetExhausted(t, projectId);
    await advanceStage(s, t, projectId, 'budget_available', opts);
  });
}

/** The wallet cannot cover calls: every live project of the tenant pauses. */
export async function walletExhausted(s: Services, tx: TxOrNull, tenantId: string): Promise<StageMove[]> {
  return moveAll(s, tx, tenantId, 'live', 'wallet_exhausted');
}

/** The wallet has funds again: projects paused for the wallet go back to live. */
export async function walletFunded(s: Services, tx: TxOrNull, tenantId: string): Promise<StageMove[]> {
  return moveAll(s, tx, tenantId, 'paused', 'wallet_funded');
}

async function moveAll(s: Services, tx: TxOrNull, tenantId: string, from: 'live' | 'paused', event: StageEvent): Promise<StageMove[]> {
  return inTx(s, tx, async (t) => {
    const projects = await projectIdsInStage(t, tenantId, from);
    const moves: StageMove[] = [];
    for (const p of projects) {
      const m = await advanceStage(s, t, p.id, event);
      if (m) moves.push(m);
    }
    return moves;
  });
}

/**
 * The top-up code, in the transaction that writes the WALLET_TOPUP entry: `wallet.topup` on every
 * project stream and resume of wallet-paused projects. After commit: kickOutbox(s) and
 * checkWalletThresholds(s, tenantId).
 */
export async function emitWalletTopup(
  s: Services,
  tx: TxOrNull,
  t: { tenantId: string; actorUserId?: string | null; ledgerEntryId: string; amountMicros: bigint; balanceAfterMicros: bigint; at?: Date },
): Promise<void> {
  await inTx(s, tx, async (x) => {
    await enqueueEventInTx(x, {
      type: 'wallet.topup',
      tenantId: t.tenantId,
      actorUserId: t.actorUserId ?? null,
      at: t.at ?? s.clock.now(),
      payload: { ledgerEntryId: t.ledgerEntryId, amountMicros: t.amountMicros.toString(), balanceAfterMicros: t.balanceAfterMicros.toString() },
    });
    await walletFunded(s, x, t.tenantId);
  });
}
