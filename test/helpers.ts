// Small lookups tests need beside the API.
import OpenAI from 'openai';
import type { TestServer } from './harness.ts';

export async function tenantIdOf(srv: TestServer, userId: string): Promise<string> {
  const row = await srv.services.db.selectFrom('memberships').select('tenant_id').where('user_id', '=', userId).orderBy('created_at').executeTakeFirstOrThrow();
  return row.tenant_id;
}

/** Poll `check` until it returns a value other than undefined. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5_000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** E-mails written to the outbox folder (the default mailer), headers unfolded, soft line breaks and =XX escapes of quoted-printable decoded. */
export async function outboxMails(dataDir: string): Promise<string[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const dir = join(dataDir, 'outbox');
  let names: string[] = [];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map(async (n) => decodeMail(await readFile(join(dir, n), 'utf8'))));
}

export function decodeMail(raw: string): string {
  return raw
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]+/g, ' ')
    .replace(/=\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Access tokens last 15 minutes and some tests move the clock by days: sign in again. */
export async function signIn(srv: TestServer, t: { email: string; password: string }): Promise<string> {
  const r = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.tokens.accessToken as string;
}

/** The token of the newest e-mailed link of that kind (`invite`, `reset-password`, `verify-email`) sent to an address. */
export async function linkTokenFor(srv: TestServer, to: string, page: 'invite' | 'reset-password' | 'verify-email'): Promise<string> {
  return eventually(async () => {
    const mails = (await outboxMails(srv.dataDir)).filter((m) => m.toLowerCase().includes(`to: ${to.toLowerCase()}`));
    for (const m of mails.reverse()) {
      const hit = new RegExp(`/${page}\\?token=([A-Za-z0-9_.%-]+)`).exec(m);
      if (hit) return decodeURIComponent(hit[1]);
    }
    return undefined;
  }, 5_000, `a ${page} e-mail to ${to}`);
}

/** Adds a registered user to the owner's tenant the only way there is: an invitation they accept with their password. */
export async function addMember(srv: TestServer, admin: { accessToken: string }, user: { email: string; password: string }, role: 'owner' | 'admin' | 'member' | 'viewer') {
  const inv = await srv.api('POST', '/api/members/invites', { token: admin.accessToken, body: { email: user.email, role } });
  if (inv.status !== 201) throw new Error(`invite failed: ${inv.status} ${JSON.stringify(inv.body)}`);
  const token = await linkTokenFor(srv, user.email, 'invite');
  const acc = await srv.api('POST', '/api/members/invites/accept', { body: { token, password: user.password } });
  if (acc.status !== 200) throw new Error(`accept failed: ${acc.status} ${JSON.stringify(acc.body)}`);
  return acc.body.data as { tenant: { id: string; name: string }; role: string; user: { id: string }; tokens: { accessToken: string; refreshToken: string } };
}

/** Whether `key` is accepted by the server's proxy (the official OpenAI SDK lists models): false on a 401, other errors thrown. */
export async function keyWorks(srv: TestServer, key: string): Promise<boolean> {
  try {
    await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: key, maxRetries: 0 }).models.list();
    return true;
  } catch (e) {
    if (e instanceof OpenAI.AuthenticationError) return false;
    throw e;
  }
}
