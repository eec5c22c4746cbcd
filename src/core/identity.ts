// Identity rules shared by the use cases, the /api schemas and the web app's forms (D2). Pure
// constants only: the web app imports the schemas built on these, so nothing here may pull in
// server code (argon2, jose, the database).

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

export const IDLE_CHOICES = ['15min', '1h', '4h', '24h', 'never'] as const;
export type IdleChoice = (typeof IDLE_CHOICES)[number];

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** A password-reset link works once, for 30 minutes (D13). */
export const RESET_LINK_TTL_MS = 30 * 60_000;
/** An invitation link works once, for 7 days. */
export const INVITE_TTL_MS = 7 * 24 * 3_600_000;
