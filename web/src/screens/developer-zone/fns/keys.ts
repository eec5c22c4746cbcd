// Service keys on the Clients tab (D3): grouping by environment and the rotation overlap's
// countdown (the old key keeps working for 24 hours after a rotation).

export const ENVIRONMENTS = [
  { id: 'dev', label: 'Development' },
  { id: 'staging', label: 'Staging' },
  { id: 'production', label: 'Production' },
] as const;

export interface KeyLike {
  environment: string;
  revokedAt: string | null;
  expiresAt: string | null;
}

export type KeyState = { kind: 'active' } | { kind: 'expiring'; remainingMs: number } | { kind: 'expired' } | { kind: 'revoked' };

export function keyState(k: KeyLike, now: number): KeyState {
  if (k.revokedAt && Date.parse(k.revokedAt) <= now) return { kind: 'revoked' };
  if (k.expiresAt) {
    const left = Date.parse(k.expiresAt) - now;
    return left > 0 ? { kind: 'expiring', remainingMs: left } : { kind: 'expired' };
  }
  return { kind: 'active' };
}

/** "23:59:59" (hours may pass 24 for keys given a longer life through the API). */
export function formatCountdown(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  return `${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}`;
}

/** Spoken form for screen readers: "23 hours 59 minutes". */
export function spokenCountdown(ms: number): string {
  const m = Math.max(0, Math.floor(ms / 60_000));
  const h = Math.floor(m / 60);
  const r = m % 60;
  return h > 0 ? `${h} hour${h === 1 ? '' : 's'} ${r} minute${r === 1 ? '' : 's'}` : `${r} minute${r === 1 ? '' : 's'}`;
}
