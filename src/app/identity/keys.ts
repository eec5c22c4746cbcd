// Service API keys (D3): created per environment and project, shown once, stored as SHA-256;
// rotation keeps the old key working for exactly 24 hours; deletion revokes at once. The proxy
// authenticates through an in-memory cache that revocation invalidates immediately.
import { hash, randomBytes } from 'node:crypto';
import type { Db } from '../../store/db.ts';
import type { Clock } from '../../infra/clock.ts';
import { appError } from '../../core/errors.ts';
import { base62, ENV_PREFIX, formatKey, hashSecret, isWellFormedKey, type KeyEnvironment } from '../../core/tokens.ts';
import { decodeCursor, toPage, type PageQuery } from '../shared/index.ts';
import * as repo from './keys.repo.ts';

export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface KeyRecord {
  id: string;
  name: string;
  environment: KeyEnvironment;
  projectId: string;
  prefix: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  rotatedFromId: string | null;
}

/** What the proxy needs to know about a presented key. */
export interface KeyPrincipal {
  keyId: string;
  tenantId: string;
  projectId: string;
  environment: KeyEnvironment;
  expiresAt: number | null;
  revokedAt: number | null;
}

type Row = {
  id: string;
  name: string;
  environment: KeyEnvironment;
  project_id: string;
  prefix: string;
  last4: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  rotated_from_id: string | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toKeyRecord = (r: Row): KeyRecord => ({
  id: r.id,
  name: r.name,
  environment: r.environment,
  projectId: r.project_id,
  prefix: r.prefix,
  last4: r.last4,
  createdAt: r.created_at.toISOString(),
  lastUsedAt: iso(r.last_used_at),
  expiresAt: iso(r.expires_at),
  revokedAt: iso(r.revoked_at),
  rotatedFromId: r.rotated_from_id,
});

export function newKey(environment: KeyEnvironment): string {
  return formatKey(ENV_PREFIX[environment], base62(randomBytes(64), 32));
}

export async function createKey(
  db: Db,
  input: { tenantId: string; projectId: string; name: string; environment: KeyEnvironment; rotatedFromId?: string; sessionId?: string | null },
): Promise<{ key: string; record: KeyRecord }> {
  const key = newKey(input.environment);
  const row = await repo.insertKey(db, {
    tenantId: input.tenantId,
    projectId: input.projectId,
    name: input.name,
    environment: input.environment,
    keyHash: hashSecret(key),
    prefix: key.slice(0, 12),
    last4: key.slice(-4),
    rotatedFromId: input.rotatedFromId ?? null,
    sessionId: input.sessionId ?? null,
  });
  return { key, record: toKeyRecord(row) };
}

/**
 * The session a new key belongs to: a desktop bridge's session (a named one, D14) owns the keys it
 * makes, so ending that session revokes them (trigger of migration 028b); a browser session or a
 * personal access token owns none.
 */
export async function keyOwnerSession(db: Db, sessionId: string | null): Promise<string | null> {
  if (!sessionId) return null;
  const row = await repo.sessionNameRow(db, sessionId);
  return row?.name ? row.id : null;
}

/** A session ended: evict the keys it owned from every replica's cache (the trigger revoked them). */
export async function evictSessionKeys(db: Db, cache: KeyCache, sessionIds: string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  const rows = await repo.keysOfSessions(db, sessionIds);
  for (const r of rows) cache.invalidateKey(r.id);
}

export async function listKeys(db: Db, tenantId: string, page: PageQuery) {
  const c = decodeCursor(page.cursor, ['id']);
  const rows = await repo.keyPage(db, tenantId, c ? c.id : null, page.limit + 1);
  return toPage(rows, page.limit, toKeyRecord, (r) => ({ id: r.id }));
}

async function getKeyRow(db: Db, tenantId: string, id: string) {
  const row = await repo.keyRow(db, tenantId, id);
  if (!row) throw appError('not_found', 'API key not found');
  return row;
}

/** Issue a successor; the old key keeps working for exactly ROTATION_OVERLAP_MS from now. */
export async function rotateKey(db: Db, clock: Clock, cache: KeyCache, tenantId: string, id: string) {
  const old = await getKeyRow(db, tenantId, id);
  const now = clock.now().getTime();
  if (old.revoked_at || (old.expires_at && old.expires_at.getTime() <= now)) {
    throw appError('conflict', 'A revoked or expired key cannot be rotated');
  }
  return db.transaction().execute(async (tx) => {
    const expiresAt = new Date(now + ROTATION_OVERLAP_MS);
    await repo.setKeyExpiry(tx, id, old.expires_at && old.expires_at < expiresAt ? old.expires_at : expiresAt);
    const created = await createKey(tx as unknown as Db, {
      tenantId,
      projectId: old.project_id,
      name: old.name,
      environment: old.environment,
      rotatedFromId: id,
      sessionId: old.session_id,
    });
    cache.invalidateKey(id);
    return created;
  });
}

export async function revokeKey(db: Db, clock: Clock, cache: KeyCache, tenantId: string, id: string) {
  await getKeyRow(db, tenantId, id);
  const row = await repo.revokeKeyRow(db, tenantId, id, clock.now());
  cache.invalidateKey(id);
  return toKeyRecord(row);
}

/**
 * Hash → principal cache for the proxy's first step. Positive entries live for `ttlMs` (bounding
 * staleness for changes made by another replica); unknown keys are cached briefly so a flood of
 * bad keys does not become a flood of queries. Revocation and rotation call invalidateKey().
 */
export class KeyCache {
  private byHash = new Map<string, { p: KeyPrincipal | null; at: number }>();
  private hashById = new Map<string, string>();
  private lastUsedPending = new Map<string, number>();

  constructor(
    private db: Db,
    private clock: Clock,
    private ttlMs = 60_000,
    private negativeTtlMs = 5_000,
    private maxEntries = 100_000,
  ) {}

  /** Resolve a presented key; null when unknown, revoked or expired at the clock's now. */
  async authenticate(presented: string): Promise<KeyPrincipal | null> {
    if (!isWellFormedKey(presented) || presented.startsWith('svc_pat_')) return null;
    // One-shot digest straight to hex: no Hash object or intermediate Buffer per call (same value as
    // hashSecret(presented).toString('hex')).
    const h = hash('sha256', presented, 'hex');
    const now = this.clock.now().getTime();
    let hit = this.byHash.get(h);
    if (!hit || now - hit.at > (hit.p ? this.ttlMs : this.negativeTtlMs)) {
      const row = await repo.keyByHash(this.db, Buffer.from(h, 'hex'));
      const p: KeyPrincipal | null = row
        ? {
            keyId: row.id,
            tenantId: row.tenant_id,
            projectId: row.project_id,
            environment: row.environment,
            expiresAt: row.expires_at ? row.expires_at.getTime() : null,
            revokedAt: row.revoked_at ? row.revoked_at.getTime() : null,
          }
        : null;
      if (this.byHash.size >= this.maxEntries) this.byHash.clear();
      hit = { p, at: now };
      this.byHash.set(h, hit);
      if (p) this.hashById.set(p.keyId, h);
    }
    const p = hit.p;
    if (!p || p.revokedAt !== null || (p.expiresAt !== null && now >= p.expiresAt)) return null;
    this.lastUsedPending.set(p.keyId, now);
    return p;
  }

  /** Set at start-up: tells every replica (this one included) that key `id` changed. */
  broadcast: ((id: string) => void) | null = null;

  /** A key was revoked or rotated: evict it here and on every other replica. */
  invalidateKey(id: string): void {
    if (this.broadcast) this.broadcast(id);
    else this.evict(id);
  }

  /** Drop one key from this replica's cache. */
  evict(id: string): void {
    const h = this.hashById.get(id);
    if (h) this.byHash.delete(h);
    this.hashById.delete(id);
  }

  /** last_used_at is written in batches off the hot path. */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsedPending.size === 0) return;
    const batch = [...this.lastUsedPending];
    this.lastUsedPending.clear();
    await repo.writeLastUsed(this.db, batch);
  }
}
