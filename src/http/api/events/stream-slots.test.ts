// Open event streams are capped per user and per tenant (issue 22 item 3): the stream past the cap
// is answered 429 in the envelope with Retry-After, and a slot frees as soon as a stream closes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { openStream, type StreamClient } from '../../../../test/sse-client.ts';
import { addMember, eventually } from '../../../../test/helpers.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ env: { SSE_MAX_STREAMS_PER_USER: '3', SSE_MAX_STREAMS_PER_TENANT: '5' }, worker: false });
});
after(() => srv.close());

const url = (s: TestServer, projectId: string) => `${s.url}/api/service/projects/${projectId}/events`;

async function refusal(c: StreamClient) {
  assert.equal(c.status, 429);
  assert.ok(Number(c.headers.get('retry-after')) >= 1, 'Retry-After');
  await c.ended;
  const body = JSON.parse(c.raw());
  assert.equal(body.success, false);
  assert.equal(body.code, 'rate_limited');
  return body.error as string;
}

describe('stream caps', () => {
  test('per user and per tenant; closing a stream frees its slot', async () => {
    const owner = await signupTenant(srv, 'owner');
    const member = await signupTenant(srv, 'member');
    const joined = await addMember(srv, owner, member, 'member');
    const open: StreamClient[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const c = await openStream(url(srv, owner.defaultProjectId), { token: owner.accessToken });
        assert.equal(c.status, 200);
        await c.next('connected');
        open.push(c);
      }
      const fourth = await openStream(url(srv, owner.defaultProjectId), { token: owner.accessToken });
      assert.match(await refusal(fourth), /this user \(at most 3\)/);

      for (let i = 0; i < 2; i++) {
        const c = await openStream(url(srv, owner.defaultProjectId), { token: joined.tokens.accessToken });
        assert.equal(c.status, 200, 'another user of the tenant has slots of their own');
        open.push(c);
      }
      const sixth = await openStream(url(srv, owner.defaultProjectId), { token: joined.tokens.accessToken });
      assert.match(await refusal(sixth), /this tenant \(at most 5\)/);

      // Another tenant is not affected.
      const other = await signupTenant(srv, 'other');
      const theirs = await openStream(url(srv, other.defaultProjectId), { token: other.accessToken });
      assert.equal(theirs.status, 200);
      open.push(theirs);

      open.shift()!.close();
      const again = await eventually(async () => {
        const c = await openStream(url(srv, owner.defaultProjectId), { token: owner.accessToken });
        if (c.status === 200) return c;
        await c.ended;
        return undefined;
      }, 5_000, 'a freed slot');
      open.push(again);
    } finally {
      for (const c of open) c.close();
    }
  });

  test('the default cap is 20 streams per user', async () => {
    const plain = await startTestServer({ database: srv.database, sim: srv.sim, worker: false });
    const open: StreamClient[] = [];
    try {
      const t = await signupTenant(plain, 'many');
      for (let i = 0; i < 20; i++) {
        const c = await openStream(url(plain, t.defaultProjectId), { token: t.accessToken });
        assert.equal(c.status, 200, `stream ${i + 1}`);
        open.push(c);
      }
      const over = await openStream(url(plain, t.defaultProjectId), { token: t.accessToken });
      assert.match(await refusal(over), /at most 20/);
    } finally {
      for (const c of open) c.close();
      await plain.close();
    }
  });
});
