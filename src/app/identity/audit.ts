// The security audit log (D2): login, logout, failed login, token create/revoke, session revoke,
// key rotate. Append-only and HMAC-chained per user exactly like the ledger, so it verifies the
// same way. Appends for one user are serialised by a transaction-scoped advisory lock.
import type { Selectable } from 'kysely';
import type { SecurityAuditTable } from '../../store/schema.ts';
import type { Db, Executor } from '../../store/db.ts';
import { GENESIS_HASH, seal, verifyPayloadChain } from '../../core/ledger/seal.ts';
import { decodeCursor, toPage, type PageQuery } from '../shared/index.ts';
import { auditChain, auditPage, chainHead, insertAuditRow, lockUserChain } from './audit.repo.ts';

export type AuditEvent =
  | 'signup'
  | 'login'
  | 'login_failed'
  | 'account_locked'
  | 'logout'
  | 'refresh_reuse_detected'
  | 'session_revoked'
  | 'session_idle_expired'
  | 'token_created'
  | 'token_revoked'
  | 'key_created'
  | 'key_rotated'
  | 'key_revoked'
  | 'password_changed'
  | 'password_reset_requested'
  | 'password_reset'
  | 'tenant_switched'
  | 'invite_accepted'
  | 'email_verified'
  | 'device_approved'
  | 'device_denied'
  // A platform admin's money actions (issue 14), in the admin's own chain.
  | 'ledger_adjusted'
  | 'topup_refunded';

export interface AuditInput {
  userId: string;
  tenantId: string | null;
  event: AuditEvent;
  ip?: string | null;
  userAgent?: string | null;
  detail?: Record<string, string | number | boolean | null>;
  at: Date;
}

function payloadOf(r: {
  id: string;
  userId: string;
  tenantId: string | null;
  seq: bigint;
  event: string;
  ip: string | null;
  userAgent: string | null;
  detail: unknown;
  createdAt: string;
}) {
  return { ...r, seq: r.seq.toString() };
}

async function append(tx: Executor, secret: Buffer, e: AuditInput): Promise<void> {
  await lockUserChain(tx, e.userId);
  const head = await chainHead(tx, e.userId);
  const seq = (head?.seq ?? 0n) + 1n;
  const prevHash = head?.seal_hash ?? GENESIS_HASH;
  const id = crypto.randomUUID();
  const createdAt = e.at.toISOString();
  const detail = e.detail ?? {};
  const p = payloadOf({
    id,
    userId: e.userId,
    tenantId: e.tenantId,
    seq,
    event: e.event,
    ip: e.ip ?? null,
    userAgent: e.userAgent ?? null,
    detail,
    createdAt,
  });
  await insertAuditRow(tx, {
    id,
    user_id: e.userId,
    tenant_id: e.tenantId,
    seq,
    event: e.event,
    ip: e.ip ?? null,
    user_agent: e.userAgent ?? null,
    detail: JSON.stringify(detail),
    created_at: createdAt,
    prev_hash: prevHash,
    seal_hash: seal(secret, prevHash, p),
  });
}

/** Append within the caller's transaction when given one, else in a transaction of its own. */
export async function audit(db: Executor, secret: Buffer, e: AuditInput): Promise<void> {
  if ('isTransaction' in db && db.isTransaction) return append(db, secret, e);
  await (db as Db).transaction().execute((tx) => append(tx, secret, e));
}

type AuditRow = Selectable<SecurityAuditTable>;

const toView = (r: AuditRow) => ({
  id: r.id,
  event: r.event,
  ip: r.ip,
  userAgent: r.user_agent,
  detail: r.detail as Record<string, unknown>,
  createdAt: r.created_at.toISOString(),
  sealHash: r.seal_hash,
  prevHash: r.prev_hash,
});

export async function listAudit(db: Db, userId: string, page: PageQuery) {
  const c = decodeCursor(page.cursor, ['seq']);
  const rows = await auditPage(db, userId, c ? BigInt(c.seq) : null, page.limit + 1);
  return toPage(rows, page.limit, toView, (r) => ({ seq: r.seq.toString() }));
}

export async function verifyAudit(db: Db, secret: Buffer, userId: string) {
  const rows = await auditChain(db, userId);
  return verifyPayloadChain(
    rows.map((r) => ({
      id: r.id,
      prevHash: r.prev_hash,
      sealHash: r.seal_hash,
      payload: payloadOf({
        id: r.id,
        userId: r.user_id,
        tenantId: r.tenant_id,
        seq: r.seq,
        event: r.event,
        ip: r.ip,
        userAgent: r.user_agent,
        detail: r.detail,
        createdAt: r.created_at.toISOString(),
      }),
    })),
    secret,
  );
}
