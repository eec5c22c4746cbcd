// Digests and the /summary numbers (spec §1): computed from the ledger in the owner's time zone,
// sent through a real SMTP server once the local send hour has passed, once per period, with a
// text and an HTML part; the same numbers served by GET /api/tenant/insights/summary.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { signupTenant, startTestServer, type TestServer } from '../../../test/harness.ts';
import { signIn, tenantIdOf } from '../../../test/helpers.ts';
import { credit, usage } from '../../../test/ledger.ts';
import { startSmtp, type Smtp } from '../../../test/smtp.ts';
import { burnText, runDigests } from './digests.ts';
import { resolvePeriod } from './insights.ts';

let srv: TestServer;
let smtp: Smtp;
before(async () => {
  smtp = await startSmtp();
  srv = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
after(async () => {
  await srv.close();
  await smtp.close();
});

const at = (iso: string) => new Date(iso);
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

/** A tenant whose owner lives in Tokyo (UTC+9) and wants daily digests, with spend on three projects. */
async function tokyoTenant() {
  srv.clock.set(at('2026-11-07T00:00:00Z'));
  const t = await signupTenant(srv, 'tokyo');
  const tenantId = await tenantIdOf(srv, t.userId);
  const s = srv.services;
  await srv.api('PATCH', '/api/users/me', { token: t.accessToken, body: { timezone: 'Asia/Tokyo', idleTimeout: 'never' } });
  assert.equal((await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { digestCadence: 'daily' } })).status, 200);
  await s.db.updateTable('tenants').set({ baseline_provider_key: 'openai' }).where('id', '=', tenantId).execute();
  const mk = async (name: string) => (await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name } })).body.data.id as string;
  const [alpha, beta, gamma] = [await mk('Alpha'), await mk('Beta'), await mk('Gamma')];
  await credit(s, tenantId, 100_000_000n, at('2026-11-07T00:00:00Z'));
  // Sunday 8 Nov in Tokyo (the day before): Beta 5,000,000.
  await usage(s, tenantId, beta, 5_000_000n, { at: at('2026-11-08T03:00:00Z') });
  // Monday 9 Nov in Tokyo (yesterday, from Tuesday): Alpha 3 calls with savings, one escalated; Beta 1,000,000 at 02:00 local; Gamma 500,000.
  // The escalated call: a first attempt below the floor (debited, marked escalated), then its retry.
  const escalated = randomUUID();
  await usage(s, tenantId, alpha, 1_000_000n, { at: at('2026-11-09T03:00:00Z'), callId: escalated, escalated: true });
  await usage(s, tenantId, alpha, 2_000_000n, { at: at('2026-11-09T04:00:00Z'), parentCallId: escalated, actual: 2_000_000n, baseline: 3_000_000n });
  for (let i = 0; i < 2; i++) {
    await usage(s, tenantId, alpha, 2_000_000n, { at: at('2026-11-09T04:00:00Z'), actual: 2_000_000n, baseline: 3_000_000n });
  }
  await usage(s, tenantId, beta, 1_000_000n, { at: at('2026-11-08T17:00:00Z') });
  await usage(s, tenantId, gamma, 500_000n, { at: at('2026-11-09T10:00:00Z') });
  // Tuesday 10 Nov in Tokyo, 01:00 local: today's first spend.
  await usage(s, tenantId, gamma, 300_000n, { at: at('2026-11-09T16:00:00Z') });
  return { ...t, tenantId, alpha, beta, gamma };
}

describe('summary numbers', () => {
  test('yesterday vs the day before in the user’s time zone: burn, tokens saved, calls, escalations, top movers', async () => {
    const t = await tokyoTenant();
    srv.clock.set(at('2026-11-09T23:10:00Z')); // Tuesday 08:10 in Tokyo
    t.accessToken = await signIn(srv, t);
    const r = await srv.api('GET', '/api/tenant/insights/summary?period=yesterday', { token: t.accessToken });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const d = r.body.data;
    assert.equal(d.timezone, 'Asia/Tokyo');
    assert.deepEqual([d.from, d.to, d.previousFrom, d.previousTo], ['2026-11-08T15:00:00.000Z', '2026-11-09T15:00:00.000Z', '2026-11-07T15:00:00.000Z', '2026-11-08T15:00:00.000Z']);
    assert.deepEqual(d.current, { serviceBurnMicros: '8500000', tokensSaved: '3000000', benchmarkEquivalentBurnMicros: '9000000', percentSaved: 33.3, calls: 5, escalations: 1 });
    assert.deepEqual(d.previous, { serviceBurnMicros: '5000000', tokensSaved: '0', benchmarkEquivalentBurnMicros: '0', percentSaved: null, calls: 1, escalations: 0 });
    assert.deepEqual(d.deltas, { serviceBurnMicros: '3500000', tokensSaved: '3000000', calls: 4, escalations: 1 });
    assert.deepEqual(
      d.topMovers.map((m: { name: string; deltaMicros: string }) => [m.name, m.deltaMicros]),
      [
        ['Alpha', '7000000'],
        ['Beta', '-4000000'],
        ['Gamma', '500000'],
      ],
    );
    assert.equal(d.source, 'ledger');

    const today = (await srv.api('GET', '/api/tenant/insights/summary?period=today', { token: t.accessToken })).body.data;
    assert.equal(today.current.serviceBurnMicros, '300000');
    assert.equal(today.previous.serviceBurnMicros, '1000000', 'yesterday up to the same local time (08:10)');
    const custom = (await srv.api('GET', '/api/tenant/insights/summary?period=custom&from=2026-11-09&to=2026-11-09', { token: t.accessToken })).body.data;
    assert.deepEqual(custom.current, d.current, 'a custom day equals yesterday');
    for (const q of ['period=custom', 'period=custom&from=2026-11-09&to=2026-11-08', 'period=custom&from=2025-01-01&to=2026-11-09', 'period=custom&from=yesterday&to=2026-11-09', 'period=quarter']) {
      assert.equal((await srv.api('GET', `/api/tenant/insights/summary?${q}`, { token: t.accessToken })).status, 400, q);
    }
    await srv.services.db.updateTable('tenants').set({ baseline_provider_key: null }).where('id', '=', t.tenantId).execute();
    const noBench = (await srv.api('GET', '/api/tenant/insights/summary?period=yesterday', { token: t.accessToken })).body.data;
    assert.equal(noBench.current.tokensSaved, null, 'no benchmark provider: savings are null, never a made-up 0');
    assert.equal(noBench.current.percentSaved, null);
    const stranger = await signupTenant(srv);
    const theirs = (await srv.api('GET', '/api/tenant/insights/summary?period=yesterday', { token: stranger.accessToken })).body.data;
    assert.equal(theirs.current.serviceBurnMicros, '0', 'tenant-scoped');
  });

  test('periods: week and month to date compare with the same elapsed span, capped at the period start', () => {
    const now = at('2026-03-31T12:00:00Z');
    const mtd = resolvePeriod('mtd', now, 'UTC');
    assert.deepEqual([mtd.current.from, mtd.previous.from, mtd.previous.to].map((x) => x.toISOString()), ['2026-03-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
    const wtd = resolvePeriod('wtd', at('2026-11-11T10:00:00Z'), 'Europe/Paris');
    assert.deepEqual([wtd.current.from, wtd.previous.from, wtd.previous.to].map((x) => x.toISOString()), ['2026-11-08T23:00:00.000Z', '2026-11-01T23:00:00.000Z', '2026-11-04T10:00:00.000Z']);
    const dst = resolvePeriod('yesterday', at('2026-11-02T12:00:00Z'), 'America/New_York');
    assert.equal(dst.current.to.getTime() - dst.current.from.getTime(), 25 * 3_600_000, 'the day DST ends lasts 25 hours');
  });
});

describe('digests', () => {
  test('the burn in dollars: a positive burn under a cent reads "< $0.01", never "$0.00"', () => {
    assert.equal(burnText('99'), '99 tokens (< $0.01)');
    assert.equal(burnText('9999'), '9,999 tokens (< $0.01)');
    assert.equal(burnText('10000'), '10,000 tokens ($0.01)');
    assert.equal(burnText('0'), '0 tokens ($0.00)');
    assert.equal(burnText('8500000'), '8,500,000 tokens ($8.50)');
  });

  test('a daily digest leaves after 08:00 local time, once per day, through SMTP, with text and HTML parts', async () => {
    const t = await tokyoTenant();
    srv.clock.set(at('2026-11-09T22:30:00Z')); // Tuesday 07:30 in Tokyo
    await runDigests(srv.services);
    assert.equal(mailsTo(t.email).length, 0, 'not before 08:00 local');
    srv.clock.set(at('2026-11-09T23:10:00Z')); // 08:10
    await runDigests(srv.services);
    await runDigests(srv.services);
    const mails = mailsTo(t.email);
    assert.equal(mails.length, 1, 'exactly once for the day');
    const m = mails[0].text;
    assert.match(m, /Subject: Switchboard daily digest for 2026-11-09 \(Tenant tokyo\)/);
    assert.match(m, /Content-Type: multipart\/alternative/);
    assert.match(m, /Content-Type: text\/plain/);
    assert.match(m, /Content-Type: text\/html/);
    assert.match(m, /Service burn: 8,500,000 tokens \(\$8\.50\) \(\+3,500,000 vs 5,000,000\)/);
    assert.match(m, /Tokens saved: 3,000,000 \(33\.3% saved\)/);
    assert.match(m, /Calls: 5 \(\+4 vs 1\)/);
    assert.match(m, /Escalations: 1 \(\+1 vs 0\)/);
    assert.match(m, /- Alpha: 7,000,000 tokens \(\+7,000,000 vs the day before\)/);
    assert.match(m, /- Beta: 1,000,000 tokens \(-4,000,000 vs the day before\)/);
    assert.match(m, /<th align="left"[^>]*>Service burn<\/th>/);
    assert.doesNotMatch(m, /openai|gpt|claude/i, 'no model or vendor names in primary copy');

    srv.clock.set(at('2026-11-10T23:05:00Z')); // Wednesday 08:05 in Tokyo
    await runDigests(srv.services);
    assert.equal(mailsTo(t.email).length, 2);
    assert.match(mailsTo(t.email)[1].text, /daily digest for 2026-11-10/);
  });

  test('a weekly digest (the default) leaves on Monday after 08:00 local for last week, across a DST change', async () => {
    srv.clock.set(at('2026-10-20T12:00:00Z'));
    const t = await signupTenant(srv, 'ny');
    const tenantId = await tenantIdOf(srv, t.userId);
    await srv.api('PATCH', '/api/users/me', { token: t.accessToken, body: { timezone: 'America/New_York', idleTimeout: 'never' } });
    await credit(srv.services, tenantId, 50_000_000n, at('2026-10-20T12:00:00Z'));
    await usage(srv.services, tenantId, t.defaultProjectId, 1_000_000n, { at: at('2026-10-27T15:00:00Z') });
    await usage(srv.services, tenantId, t.defaultProjectId, 2_000_000n, { at: at('2026-11-05T15:00:00Z') });
    srv.clock.set(at('2026-11-09T12:59:00Z')); // Monday 07:59 in New York (EST)
    await runDigests(srv.services);
    assert.equal(mailsTo(t.email).length, 0);
    srv.clock.set(at('2026-11-09T13:01:00Z')); // 08:01
    await runDigests(srv.services);
    srv.clock.set(at('2026-11-11T13:01:00Z')); // later that week: already sent
    await runDigests(srv.services);
    const mails = mailsTo(t.email);
    assert.equal(mails.length, 1);
    assert.match(mails[0].text, /weekly digest for the week of 2026-11-02/);
    assert.match(mails[0].text, /Service burn: 2,000,000 tokens \(\$2\.00\) \(\+1,000,000 vs 1,000,000\)/);
    assert.match(mails[0].text, /Choose a benchmark provider/);
    const off = await signupTenant(srv, 'off');
    await srv.api('PATCH', '/api/users/me/notifications', { token: off.accessToken, body: { digestCadence: 'off' } });
    srv.clock.set(at('2026-11-16T13:30:00Z'));
    await runDigests(srv.services);
    assert.equal(mailsTo(off.email).length, 0, 'cadence off');
    assert.equal(mailsTo(t.email).length, 2, 'the next week’s digest');
  });
});
