// Notification settings per user and tenant (spec §1 /notifications): balance and runway
// thresholds, escalation alerts, digest cadence, an optional signed webhook, and the channel
// (email or webhook). Threshold alerts fire once per crossing: the setting is disarmed when its
// alert fires and re-armed, silently, when the value is back at or above the threshold (or the
// threshold changes). Alerts leave through jobs, never on the request path: e-mails through the
// `alerts.send` queue, webhooks as signed deliveries with the same retries as tenant webhooks.
import { mapPerServices, type Services } from '../shared/index.ts';
import type { Executor, Tx } from '../../store/db.ts';
import { appError } from '../../core/errors.ts';
import { encryptSecret } from '../../core/secret-box.ts';
import { generateWebhookSecret } from '../../core/webhooks/signature.ts';
import { enqueueEventInTx, insertDeliveries, kickOutbox, type EventFrame, type PayloadOf } from './events.ts';
import { assertWebhookUrl, userWebhookAad } from './webhooks.ts';
import { webhookSecretKey } from '../shared/index.ts';
import { escapeHtml } from '../shared/index.ts';
import * as repo from './alerts.repo.ts';

import { type AlertChannel, type DigestCadence, TEST_ALERT_TYPE } from '../../core/notifications.ts';
export { ALERT_CHANNELS, DIGEST_CADENCES, type AlertChannel, type DigestCadence } from '../../core/notifications.ts';
/** Runway = balance ÷ average daily burn over this many trailing days. */
export const RUNWAY_WINDOW_DAYS = 7;

export interface NotificationSettings {
  balanceThresholdMicros: string | null;
  runwayThresholdDays: number | null;
  escalationAlert: boolean;
  digestCadence: DigestCadence;
  webhookUrl: string | null;
  channel: AlertChannel;
}

export const DEFAULT_SETTINGS: NotificationSettings = {
  balanceThresholdMicros: null,
  runwayThresholdDays: null,
  escalationAlert: false,
  digestCadence: 'weekly',
  webhookUrl: null,
  channel: 'email',
};

export async function getNotificationSettings(s: Services, tenantId: string, userId: string): Promise<NotificationSettings> {
  const r = await repo.settingsRow(s.db, tenantId, userId);
  if (!r) return { ...DEFAULT_SETTINGS };
  return {
    balanceThresholdMicros: r.balance_threshold_micros?.toString() ?? null,
    runwayThresholdDays: r.runway_threshold_days,
    escalationAlert: r.escalation_alert,
    digestCadence: r.digest_cadence,
    webhookUrl: r.webhook_url,
    channel: r.channel,
  };
}

export interface NotificationPatch {
  balanceThresholdMicros?: bigint | null;
  runwayThresholdDays?: number | null;
  escalationAlert?: boolean;
  digestCadence?: DigestCadence;
  webhookUrl?: string | null;
  channel?: AlertChannel;
}

/** Returns the settings, plus the alert webhook's signing secret when the URL was (re)set: shown once. */
export async function updateNotificationSettings(
  s: Services,
  tenantId: string,
  userId: string,
  patch: NotificationPatch,
): Promise<NotificationSettings & { webhookSecret?: string }> {
  const current = await getNotificationSettings(s, tenantId, userId);
  const url = patch.webhookUrl !== undefined ? patch.webhookUrl : current.webhookUrl;
  const channel = patch.channel ?? current.channel;
  if (channel === 'webhook' && !url) throw appError('validation', 'channel webhook needs a webhookUrl', { field: patch.channel ? 'channel' : 'webhookUrl' });
  const newUrl = patch.webhookUrl !== undefined && patch.webhookUrl !== null && patch.webhookUrl !== current.webhookUrl;
  if (newUrl) await assertWebhookUrl(s, patch.webhookUrl!, 'webhookUrl');
  const secret = newUrl ? generateWebhookSecret() : undefined;

  const cols: Record<string, unknown> = { updated_at: s.clock.now() };
  if (patch.balanceThresholdMicros !== undefined) {
    cols.balance_threshold_micros = patch.balanceThresholdMicros;
    cols.balance_alert_armed = true;
  }
  if (patch.runwayThresholdDays !== undefined) {
    cols.runway_threshold_days = patch.runwayThresholdDays;
    cols.runway_alert_armed = true;
  }
  if (patch.escalationAlert !== undefined) cols.escalation_alert = patch.escalationAlert;
  if (patch.digestCadence !== undefined) cols.digest_cadence = patch.digestCadence;
  if (patch.channel !== undefined) cols.channel = patch.channel;
  if (patch.webhookUrl === null) {
    cols.webhook_url = null;
    cols.webhook_secret_enc = null;
  } else if (newUrl) {
    cols.webhook_url = patch.webhookUrl;
    cols.webhook_secret_enc = encryptSecret(webhookSecretKey(s.secrets), secret!, userWebhookAad(tenantId, userId));
  }
  await repo.upsertSettings(s.db, tenantId, userId, cols);
  thresholdCacheOf(s).delete(tenantId);
  const next = await getNotificationSettings(s, tenantId, userId);
  return secret ? { ...next, webhookSecret: secret } : next;
}

// ---------------------------------------------------------------------------------------------
// Alerts

interface Recipient {
  userId: string;
  channel: AlertChannel;
}

/** Send `frame` to each recipient on their channel, written in `tx` so the alert leaves iff it commits. */
export async function queueAlerts(s: Services, tx: Tx, frame: EventFrame, recipients: Recipient[]): Promise<void> {
  const byMail = recipients.filter((r) => r.channel === 'email');
  const byHook = recipients.filter((r) => r.channel === 'webhook');
  await s.jobs.mailAlerts(
    tx,
    byMail.map((r) => ({ userId: r.userId, frame })),
  );
  if (byHook.length) {
    await insertDeliveries(s, tx, { tenantId: frame.tenantId, eventType: frame.type, body: JSON.stringify(frame), targets: byHook.map((r) => ({ userId: r.userId })) });
  }
}

/**
 * Whether a tenant has any balance or runway threshold, cached per process for this long. Most
 * tenants have none, and for them the threshold job would do nothing: one indexed read every few
 * seconds replaces the job's queue traffic after every settlement. Changes made through this
 * process evict at once (updateNotificationSettings); one made on another replica is seen within
 * the TTL, and the next settlement or top-up after that evaluates it against the balance then.
 */
export const THRESHOLD_CACHE_TTL_MS = 5_000;
const thresholdCacheOf = mapPerServices<{ at: number; any: boolean }>();

async function hasAnyThreshold(s: Services, tenantId: string): Promise<boolean> {
  const cache = thresholdCacheOf(s);
  const now = s.clock.now().getTime();
  const hit = cache.get(tenantId);
  if (hit && now - hit.at < THRESHOLD_CACHE_TTL_MS) return hit.any;
  // No membership join: a non-member's setting only means an idle job, never a missed alert.
  const any = await repo.anyThreshold(s.db, tenantId);
  if (cache.size > 100_000) cache.clear();
  cache.set(tenantId, { at: now, any });
  return any;
}

/**
 * The wallet and settlement code, after its commit: re-evaluate this tenant's balance and runway
 * alerts. Off the request path: a job (debounced per tenant) runs evaluateWalletThresholds, unless
 * the tenant has no threshold at all (then the job would fire nothing and re-arm nothing).
 */
export async function checkWalletThresholds(s: Services, tenantId: string): Promise<void> {
  if (!(await hasAnyThreshold(s, tenantId))) return;
  await s.jobs.checkThresholds(tenantId);
}

/** Daily burn over the trailing window, and runway in days (null when nothing was burnt). */
export async function walletRunway(db: Executor, tenantId: string, now: Date): Promise<{ balanceMicros: bigint; burnMicros: bigint; runwayDays: number | null }> {
  const balance = await repo.walletBalance(db, tenantId);
  const since = new Date(now.getTime() - RUNWAY_WINDOW_DAYS * 86_400_000);
  const burnMicros = await repo.usageBurn(db, tenantId, since, now);
  // Days are a ratio, not money: exact tenths from bigints, then a number for display.
  const tenthsOfDays = burnMicros > 0n ? (balance * BigInt(RUNWAY_WINDOW_DAYS) * 10n) / burnMicros : null;
  const runwayDays = tenthsOfDays === null ? null : Number(tenthsOfDays) / 10;
  return { balanceMicros: balance, burnMicros, runwayDays };
}

/** Fire balance and runway alerts that crossed since the last evaluation; re-arm those back above. Returns the alerts fired. */
export async function evaluateWalletThresholds(s: Services, tenantId: string): Promise<Array<{ userId: string; type: 'wallet.threshold' | 'runway.threshold' }>> {
  const now = s.clock.now();
  const { balanceMicros, burnMicros, runwayDays } = await walletRunway(s.db, tenantId, now);
  const rows = await repo.thresholdSubscribers(s.db, tenantId);
  const fired: Array<{ userId: string; type: 'wallet.threshold' | 'runway.threshold' }> = [];
  for (const r of rows) {
    if (r.balance_threshold_micros !== null) {
      const below = balanceMicros < r.balance_threshold_micros;
      const payload = { userId: r.user_id, threshold: r.balance_threshold_micros.toString(), balance: balanceMicros.toString() };
      if (await crossing(s, tenantId, r.user_id, 'balance_alert_armed', below, { type: 'wallet.threshold', payload }, r.channel, now)) {
        fired.push({ userId: r.user_id, type: 'wallet.threshold' });
      }
    }
    if (r.runway_threshold_days !== null) {
      // Exact: runway < threshold  ⇔  balance × window < threshold × burn over the window.
      const below = burnMicros > 0n && balanceMicros * BigInt(RUNWAY_WINDOW_DAYS) < BigInt(r.runway_threshold_days) * burnMicros;
      const payload = { userId: r.user_id, thresholdDays: r.runway_threshold_days, runway: runwayDays ?? 0, balance: balanceMicros.toString() };
      if (await crossing(s, tenantId, r.user_id, 'runway_alert_armed', below, { type: 'runway.threshold', payload }, r.channel, now)) {
        fired.push({ userId: r.user_id, type: 'runway.threshold' });
      }
    }
  }
  if (fired.length) kickOutbox(s);
  return fired;
}

type ThresholdEvent =
  | { type: 'wallet.threshold'; payload: PayloadOf<'wallet.threshold'> }
  | { type: 'runway.threshold'; payload: PayloadOf<'runway.threshold'> };

/** Below and armed: disarm, emit and alert, atomically (so two evaluators never both fire). Above: re-arm. */
async function crossing(
  s: Services,
  tenantId: string,
  userId: string,
  armed: 'balance_alert_armed' | 'runway_alert_armed',
  below: boolean,
  ev: ThresholdEvent,
  channel: AlertChannel,
  at: Date,
): Promise<boolean> {
  if (!below) {
    await repo.setArmed(s.db, tenantId, userId, armed, true);
    return false;
  }
  return s.db.transaction().execute(async (tx) => {
    if (!(await repo.setArmed(tx, tenantId, userId, armed, false))) return false;
    const frame = await enqueueEventInTx(tx, { ...ev, tenantId, actorUserId: null, at } as Parameters<typeof enqueueEventInTx>[1]);
    await queueAlerts(s, tx, frame, [{ userId, channel }]);
    return true;
  });
}

/**
 * The proxy pipeline, when a call is escalated (inside its settlement transaction, or null):
 * `routing.escalated` on the project stream, and an alert to every member who asked for them.
 */
export async function emitRoutingEscalated(
  s: Services,
  tx: Tx | null,
  e: { tenantId: string; projectId: string; actorUserId?: string | null; at?: Date; payload: PayloadOf<'routing.escalated'> },
): Promise<void> {
  const run = async (t: Tx) => {
    const frame = await enqueueEventInTx(t, { type: 'routing.escalated', tenantId: e.tenantId, projectId: e.projectId, actorUserId: e.actorUserId ?? null, at: e.at ?? s.clock.now(), payload: e.payload });
    const users = await repo.escalationSubscribers(t, e.tenantId);
    await queueAlerts(s, t, frame, users.map((u) => ({ userId: u.user_id, channel: u.channel })));
  };
  if (tx) return run(tx);
  await s.db.transaction().execute(run);
  kickOutbox(s);
}

// ---------------------------------------------------------------------------------------------
// Alert e-mails

/** USD from micros, exact (bigint), e.g. 12345678n → "$12.35" rounded half up to cents. */
export function formatUsd(micros: bigint): string {
  const neg = micros < 0n;
  const abs = neg ? -micros : micros;
  const cents = (abs + 5_000n) / 10_000n;
  const s = `$${(cents / 100n).toLocaleString('en-US')}.${(cents % 100n).toString().padStart(2, '0')}`;
  return neg ? `-${s}` : s;
}

export const formatTokens = (micros: bigint | string) => BigInt(micros).toLocaleString('en-US');

export async function sendAlertEmail(s: Services, userId: string, frame: EventFrame): Promise<void> {
  const u = await repo.recipientOf(s.db, userId);
  if (!u) return;
  const project = await repo.projectName(s.db, frame.projectId);
  const p = frame.payload as Record<string, string | number | null>;
  let subject: string;
  let lines: string[];
  switch (frame.type) {
    case 'wallet.threshold':
      subject = 'Your Switchboard wallet balance is below your alert threshold';
      lines = [
        `Your wallet balance is ${formatTokens(String(p.balance))} tokens (${formatUsd(BigInt(String(p.balance)))}), below your threshold of ${formatTokens(String(p.threshold))} tokens.`,
        'Add tokens on the Billing page, or set up auto top-up, to keep calls flowing.',
      ];
      break;
    case 'runway.threshold':
      subject = `Your Switchboard runway is below ${p.thresholdDays} days`;
      lines = [`At your recent daily burn, your wallet lasts about ${p.runway} more days (threshold: ${p.thresholdDays} days).`, 'Add tokens on the Billing page to extend it.'];
      break;
    case 'routing.escalated':
      subject = `A call in ${project?.name ?? 'your project'} was escalated`;
      lines = [`A response fell below the quality floor and was retried one class up (${p.fromClass} → ${p.toClass}). Reason: ${p.reason}.`, 'The better answer was delivered; both attempts are in the ledger.'];
      break;
    case TEST_ALERT_TYPE:
      subject = 'Switchboard test alert';
      lines = ['This is a test alert, sent from the Notifications page. Real alerts (balance, runway, escalation) reach you the same way.'];
      break;
    default:
      subject = `Switchboard alert: ${frame.type}`;
      lines = [JSON.stringify(frame.payload)];
  }
  const settings = 'Change your alerts on the Notifications page.';
  await s.mailer.send({
    to: u.email,
    subject,
    text: [`Hello ${u.name},`, '', ...lines, '', settings].join('\n'),
    html: `<p>Hello ${escapeHtml(u.name)},</p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p style="color:#666">${settings}</p>`,
  });
}
