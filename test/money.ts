// Shared helpers for the money-path tests: tenants made through the real signup use case (no HTTP
// rate limit in the way), credits sealed through the real ledger append, and settlement inputs
// that look like what the proxy pipeline passes.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Services } from '../src/app/shared/services.ts';
import { login, signup, type Role } from '../src/app/identity/auth.ts';
import { appendLedgerEntry } from '../src/app/money/ledger.ts';
import { getDefaultProjectId } from '../src/app/projects/projects.ts';
import type { Reservation, SettlementInput } from '../src/app/money/wallet.ts';
import { decideLayer1 } from '../src/core/routing/layer1.ts';
import type { CanonicalRequest } from '../src/core/canonical/types.ts';
import type { ProviderKey } from '../src/core/providers.ts';

export interface Tenant {
  tenantId: string;
  userId: string;
  email: string;
  accessToken: string;
  projectId: string;
}

let n = 0;
export async function newTenant(s: Services, label = 'm'): Promise<Tenant> {
  n += 1;
  const email = `${label}-${process.pid}-${n}-${randomBytes(3).toString('hex')}@example.test`;
  const r = await signup(s, { email, password: 'correct horse battery staple', name: `User ${label}`, tenantName: `Tenant ${label} ${n}` }, {});
  const m = await s.db.selectFrom('memberships').select('tenant_id').where('user_id', '=', r.user.id).executeTakeFirstOrThrow();
  return { tenantId: m.tenant_id, userId: r.user.id, email, accessToken: r.tokens.accessToken, projectId: await getDefaultProjectId(s.db, m.tenant_id) };
}

/** Another user signed into `tenantId` with `role` (created with that membership only). */
export async function memberOf(s: Services, tenantId: string, role: Role): Promise<Tenant> {
  const t = await newTenant(s, role);
  await s.db.updateTable('memberships').set({ role }).where('user_id', '=', t.userId).execute();
  // Re-point the new user's only membership (and session) at the target tenant.
  await s.db.updateTable('memberships').set({ tenant_id: tenantId }).where('user_id', '=', t.userId).execute();
  await s.db.updateTable('sessions').set({ tenant_id: tenantId }).where('user_id', '=', t.userId).execute();
  const r = await login(s, { email: t.email, password: 'correct horse battery staple' }, {});
  return { ...t, tenantId, accessToken: r.tokens.accessToken, projectId: await getDefaultProjectId(s.db, tenantId) };
}

export async function makePlatformAdmin(s: Services, userId: string): Promise<void> {
  await s.db.updateTable('users').set({ platform_admin: true }).where('id', '=', userId).execute();
}

/** Credit the wallet with a sealed ADJUSTMENT entry. */
export async function credit(s: Services, tenantId: string, micros: bigint, memo = 'Test credit'): Promise<void> {
  await s.db.transaction().execute((tx) =>
    appendLedgerEntry(tx, s.secrets.ledger, { tenantId, projectId: null, eventType: 'ADJUSTMENT', amountMicros: micros, memo, at: s.clock.now() }),
  );
}

export async function walletRow(s: Services, tenantId: string) {
  return s.db.selectFrom('wallets').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
}

export async function ledgerSum(s: Services, tenantId: string): Promise<bigint> {
  const r = await sql<{ total: bigint }>`select coalesce(sum(amount_micros), 0)::bigint as total from ledger_entries where tenant_id = ${tenantId}`.execute(s.db);
  return r.rows[0].total;
}

export const REQUEST: CanonicalRequest = {
  shape: 'openai',
  model: 'gpt-4o',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Write a short poem about the sea, please.' }] }],
  stream: false,
};

/** gpt-4o-mini (economy: $0.15 / $0.60 per MTok) on 1000 in / 500 out = 450 micros. */
export const MODEL = 'gpt-4o-mini';
export const USAGE = { inputTokens: 1000, outputTokens: 500 };
export const COST = 450n;

export function settlement(t: { tenantId: string; projectId: string }, reservation: Reservation, over: Partial<SettlementInput> = {}): SettlementInput {
  const d = decideLayer1(REQUEST, { qualityFloor: 0.6 });
  return {
    tenantId: t.tenantId,
    projectId: t.projectId,
    callId: reservation.id,
    keyId: null,
    reservation,
    provider: 'openai',
    model: MODEL,
    region: 'us-east',
    modelClass: 'economy',
    usage: USAGE,
    benchmarkProvider: 'anthropic' as ProviderKey,
    channel: 'proxy:chat',
    clientShape: 'openai',
    stream: false,
    routing: d,
    latencyMs: 321,
    promptExcerpt: 'Write a short poem about the sea, please.',
    request: { messages: [{ role: 'user', content: 'Write a short poem about the sea, please.' }] },
    response: { text: 'The sea is wide.' },
    ...over,
  };
}

export const callId = () => randomUUID();

export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
