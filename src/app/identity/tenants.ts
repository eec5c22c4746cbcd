// The tenant as its members see it (D13): read and rename it, list the signed-in user's
// memberships, and switch the current session to another of them. A switch keeps the session
// (same id, same idle clock, same sign-out) and issues a new token pair naming the new tenant;
// the old access tokens stop working at once, since the tenant is read from the session row.
import { randomUUID } from 'node:crypto';
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import type { Role } from '../../core/identity.ts';
import { audit } from './audit.ts';
import { moveSession } from './sessions.repo.ts';
import { membershipRole, renameTenantRow, tenantRow, tenantsOfUser } from './users.repo.ts';
import { issueTokens, type AuthContext } from './auth.ts';
import type { RequestMeta } from './credentials.ts';

export interface TenantView {
  id: string;
  name: string;
  /** The caller's role in this tenant. */
  role: Role;
  createdAt: string;
}

export async function getTenant(s: Services, ctx: AuthContext): Promise<TenantView> {
  const t = await tenantRow(s.db, ctx.tenantId);
  if (!t) throw appError('not_found', 'Tenant not found');
  return { id: t.id, name: t.name, role: ctx.role, createdAt: t.created_at.toISOString() };
}

export async function renameTenant(s: Services, ctx: AuthContext, name: string): Promise<TenantView> {
  const t = await renameTenantRow(s.db, ctx.tenantId, name);
  if (!t) throw appError('not_found', 'Tenant not found');
  return { id: t.id, name: t.name, role: ctx.role, createdAt: t.created_at.toISOString() };
}

export interface MembershipView {
  tenantId: string;
  name: string;
  role: Role;
  current: boolean;
  joinedAt: string;
}

export async function listMyTenants(s: Services, ctx: AuthContext): Promise<MembershipView[]> {
  const rows = await tenantsOfUser(s.db, ctx.userId);
  return rows.map((r) => ({ tenantId: r.id, name: r.name, role: r.role, current: r.id === ctx.tenantId, joinedAt: r.created_at.toISOString() }));
}

export async function switchTenant(s: Services, ctx: AuthContext, tenantId: string, meta: RequestMeta) {
  if (!ctx.sessionId) throw appError('forbidden', 'A personal access token belongs to one tenant; sign in to switch tenants');
  const sessionId = ctx.sessionId;
  const now = s.clock.now();
  return s.db.transaction().execute(async (tx) => {
    const role = await membershipRole(tx, tenantId, ctx.userId);
    if (!role) throw appError('not_found', 'You are not a member of that tenant');
    const jti = randomUUID();
    if (!(await moveSession(tx, { sessionId, userId: ctx.userId, tenantId, jti, now }))) throw appError('session_revoked');
    await audit(tx, s.secrets.ledger, { userId: ctx.userId, tenantId, event: 'tenant_switched', at: now, detail: { sessionId, from: ctx.tenantId }, ...meta });
    const tokens = await issueTokens(s, ctx.userId, tenantId, sessionId, jti);
    return { tenantId, role, tokens };
  });
}
