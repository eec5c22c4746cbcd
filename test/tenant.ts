// Small lookups tests need beside the API.
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
