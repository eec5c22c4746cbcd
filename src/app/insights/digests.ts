// Daily and weekly digests (spec §1 /summary): e-mailed to the wallet owners (the tenant's
// owners) in their own time zone, with the /summary numbers for the last complete day or week
// against the one before, and the three top movers, in an HTML and a text part. An hourly job
// calls runDigests; an owner's digest goes out at the first run after 08:00 local time once the
// period is over (daily: yesterday; weekly: last Monday-Sunday), exactly once per period: the
// digest_sends row is claimed before sending and released if sending fails, so the next run retries.
import type { Services } from '../shared/index.ts';
import { addDays, formatLocalDate, fromLocal, localDateOf, toLocal } from '../../core/time/zoned.ts';
import { buildSummary, lastWeek, type PeriodRanges, type Summary, type Totals } from './insights.ts';
import { formatTokens, formatUsd } from '../events/index.ts';
import { escapeHtml } from '../shared/index.ts';
import { claimDigestSend, digestRecipient, ownersWithCadence, releaseDigestSend } from './digests.repo.ts';

export const DIGEST_SEND_HOUR = 8;

export interface DueDigest {
  cadence: 'daily' | 'weekly';
  periodStart: string;
  ranges: PeriodRanges;
}

/** The digest due at `now` for a user in `tz`, or null before the send hour. */
export function dueDigest(cadence: 'daily' | 'weekly', now: Date, tz: string): DueDigest | null {
  const local = toLocal(now, tz);
  if (cadence === 'daily') {
    if (local.hour < DIGEST_SEND_HOUR) return null;
    const today = localDateOf(now, tz);
    const y = addDays(today, -1);
    return {
      cadence,
      periodStart: formatLocalDate(y),
      ranges: { current: { from: fromLocal(y, tz), to: fromLocal(today, tz) }, previous: { from: fromLocal(addDays(today, -2), tz), to: fromLocal(y, tz) } },
    };
  }
  if (local.weekday === 1 && local.hour < DIGEST_SEND_HOUR) return null;
  const w = lastWeek(now, tz);
  return { cadence, periodStart: w.periodStart, ranges: w };
}

/** One hourly run: send every digest that is due and not sent yet. Returns how many were sent. */
export async function runDigests(s: Services): Promise<number> {
  const now = s.clock.now();
  const owners = await ownersWithCadence(s.db);
  let sent = 0;
  for (const o of owners) {
    if (o.cadence === 'off') continue;
    const due = dueDigest(o.cadence, now, o.timezone);
    if (!due) continue;
    const send = { tenantId: o.tenant_id, userId: o.user_id, cadence: due.cadence, periodStart: due.periodStart };
    if (!(await claimDigestSend(s.db, send, now))) continue;
    try {
      const summary = await buildSummary(s, o.tenant_id, o.timezone, due.cadence === 'daily' ? 'yesterday' : 'last-week', due.ranges);
      await s.mailer.send({ to: o.email, ...renderDigest(summary, { name: o.name, tenantName: o.tenant_name, cadence: due.cadence, periodStart: due.periodStart, publicUrl: s.publicUrl }) });
      sent++;
    } catch (e) {
      await releaseDigestSend(s.db, send);
      s.log.warn(e, 'digest e-mail failed; will retry at the next run');
    }
  }
  return sent;
}

const signed = (v: bigint, fmt: (x: bigint) => string) => (v > 0n ? `+${fmt(v)}` : v < 0n ? `-${fmt(-v)}` : fmt(0n));
const signedInt = (v: number) => (v > 0 ? `+${v}` : String(v));
/** "N tokens ($x.yz)"; a positive burn under a cent reads "< $0.01", never "$0.00" (as on /summary). */
export function burnText(micros: string): string {
  const v = BigInt(micros);
  return `${formatTokens(micros)} tokens (${v > 0n && v < 10_000n ? '< $0.01' : formatUsd(v)})`;
}

function rows(t: Totals, prev: Totals, d: Summary['deltas']): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [
    ['Service burn', burnText(t.serviceBurnMicros), `${signed(BigInt(d.serviceBurnMicros), formatTokens)} vs ${formatTokens(prev.serviceBurnMicros)}`],
  ];
  if (t.tokensSaved !== null && d.tokensSaved !== null) {
    out.push(['Tokens saved', `${formatTokens(t.tokensSaved)}${t.percentSaved !== null ? ` (${t.percentSaved}% saved)` : ''}`, `${signed(BigInt(d.tokensSaved), formatTokens)} vs ${formatTokens(prev.tokensSaved!)}`]);
  } else {
    out.push(['Tokens saved', 'Choose a benchmark provider on the Billing page to see your savings', '']);
  }
  out.push(['Calls', String(t.calls), `${signedInt(d.calls)} vs ${prev.calls}`]);
  out.push(['Escalations', String(t.escalations), `${signedInt(d.escalations)} vs ${prev.escalations}`]);
  return out;
}

export function renderDigest(
  sm: Summary,
  o: { name: string; tenantName: string; cadence: 'daily' | 'weekly'; periodStart: string; publicUrl: string },
): { subject: string; text: string; html: string } {
  const label = o.cadence === 'daily' ? `daily digest for ${o.periodStart}` : `weekly digest for the week of ${o.periodStart}`;
  const subject = `Switchboard ${label} (${o.tenantName})`;
  const table = rows(sm.current, sm.previous, sm.deltas);
  const previousLabel = o.cadence === 'daily' ? 'the day before' : 'the week before';
  const movers = sm.topMovers.map((m) => `${m.name}: ${formatTokens(m.currentMicros)} tokens (${signed(BigInt(m.deltaMicros), formatTokens)} vs ${previousLabel})`);
  const link = `${o.publicUrl}/summary`;
  const text = [
    `Hello ${o.name},`,
    '',
    `Your ${label} (${sm.timezone}), compared with ${previousLabel}:`,
    '',
    ...table.map(([k, v, d]) => `${k}: ${v}${d ? ` (${d})` : ''}`),
    '',
    'Top movers:',
    ...(movers.length ? movers.map((m) => `- ${m}`) : ['- No project changed its spend.']),
    '',
    `See the details: ${link}`,
    'Change the digest cadence on the Notifications page.',
  ].join('\n');
  const cell = 'style="padding:4px 12px;border-bottom:1px solid #eee"';
  const html = [
    `<p>Hello ${escapeHtml(o.name)},</p>`,
    `<p>Your ${escapeHtml(label)} (${escapeHtml(sm.timezone)}), compared with ${previousLabel}:</p>`,
    '<table style="border-collapse:collapse">',
    ...table.map(([k, v, d]) => `<tr><th align="left" ${cell}>${escapeHtml(k)}</th><td ${cell}>${escapeHtml(v)}</td><td ${cell} style="color:#666">${escapeHtml(d)}</td></tr>`),
    '</table>',
    '<h3>Top movers</h3>',
    movers.length ? `<ul>${movers.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul>` : '<p>No project changed its spend.</p>',
    `<p><a href="${escapeHtml(link)}">See the details</a></p>`,
    '<p style="color:#666">Change the digest cadence on the Notifications page.</p>',
  ].join('\n');
  return { subject, text, html };
}

/**
 * The /summary screen's preview (D13): the latest digest e-mail the calling user's cadence covers
 * (yesterday for daily, last week for weekly), built and rendered exactly as the e-mail is.
 */
export async function digestPreview(s: Services, tenantId: string, userId: string) {
  const who = await digestRecipient(s.db, tenantId, userId);
  const cadence = who.cadence === 'daily' ? 'daily' : 'weekly';
  const now = s.clock.now();
  const due =
    cadence === 'daily'
      ? (() => {
          const today = localDateOf(now, who.timezone);
          const y = addDays(today, -1);
          const ranges = { current: { from: fromLocal(y, who.timezone), to: fromLocal(today, who.timezone) }, previous: { from: fromLocal(addDays(today, -2), who.timezone), to: fromLocal(y, who.timezone) } };
          return { periodStart: formatLocalDate(y), ranges };
        })()
      : (() => {
          const w = lastWeek(now, who.timezone);
          return { periodStart: w.periodStart, ranges: w };
        })();
  const summary = await buildSummary(s, tenantId, who.timezone, cadence === 'daily' ? 'yesterday' : 'last-week', due.ranges);
  const mail = renderDigest(summary, { name: who.name, tenantName: who.tenant_name, cadence, periodStart: due.periodStart, publicUrl: s.publicUrl });
  return { cadence: who.cadence, periodStart: due.periodStart, subject: mail.subject, text: mail.text };
}
