// Platform operators (D2, D13): `platformAdmin=true` opens /api/admin/**. The default run seeds
// admin@switchboard.local; `switchboard admin grant <email>` makes any existing user one.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Services } from '../shared/index.ts';
import type { Executor } from '../../store/db.ts';
import { signup } from './auth.ts';
import { adminFlagByEmail, setPlatformAdmin, userIdByLowerEmail } from './users.repo.ts';
import { base62 } from '../../core/tokens.ts';

export const ADMIN_EMAIL = 'admin@switchboard.local';

/** Grant platform admin to the user with this e-mail (case-insensitive). False when no such user exists. */
export async function grantPlatformAdmin(db: Executor, email: string): Promise<{ granted: boolean; already: boolean }> {
  const row = await adminFlagByEmail(db, email.trim());
  if (!row) return { granted: false, already: false };
  if (row.platform_admin) return { granted: true, already: true };
  await setPlatformAdmin(db, row.id);
  return { granted: true, already: false };
}

export interface AdminCredentials {
  email: string;
  password: string | null;
}

/**
 * The default run's platform admin, made once (with its own operators' tenant, as signup makes
 * every user); the password is kept in DATA_DIR/admin.json (mode 0600) so later starts can print it.
 */
export async function ensurePlatformAdmin(s: Services): Promise<AdminCredentials> {
  const file = join(s.config.DATA_DIR, 'admin.json');
  if (await userIdByLowerEmail(s.db, ADMIN_EMAIL)) {
    await grantPlatformAdmin(s.db, ADMIN_EMAIL);
    try {
      return JSON.parse(await readFile(file, 'utf8')) as AdminCredentials;
    } catch {
      return { email: ADMIN_EMAIL, password: null };
    }
  }
  const password = base62(randomBytes(64), 16);
  await signup(s, { email: ADMIN_EMAIL, password, name: 'Platform Admin', tenantName: 'Switchboard Operators' }, { ip: null, userAgent: 'seed' });
  await grantPlatformAdmin(s.db, ADMIN_EMAIL);
  const creds = { email: ADMIN_EMAIL, password };
  await mkdir(s.config.DATA_DIR, { recursive: true });
  await writeFile(file, JSON.stringify(creds), { mode: 0o600 });
  return creds;
}
