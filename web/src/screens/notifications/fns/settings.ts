// The /notifications form: text fields to the PATCH body (changed fields only; an empty threshold
// is "no alert"). Balance thresholds are wallet tokens, and 1 token = 1 micro (D1), so the digits
// go to balanceThresholdMicros as they are.
export interface NotificationValues {
  balance: string;
  runway: string;
  escalationAlert: boolean;
  digestCadence: string;
  channel: string;
  webhookUrl: string;
}

export interface NotificationSettingsLike {
  balanceThresholdMicros: string | null;
  runwayThresholdDays: number | null;
  escalationAlert: boolean;
  digestCadence: string;
  channel: string;
  webhookUrl: string | null;
}

export const valuesOf = (s: NotificationSettingsLike): NotificationValues => ({
  balance: s.balanceThresholdMicros ?? '',
  runway: s.runwayThresholdDays === null ? '' : String(s.runwayThresholdDays),
  escalationAlert: s.escalationAlert,
  digestCadence: s.digestCadence,
  channel: s.channel,
  webhookUrl: s.webhookUrl ?? '',
});

/** Digits with separators a person may type ("1,000,000") → the digits; anything else stays as typed for the schema to refuse. */
const digits = (v: string) => {
  const t = v.trim().replace(/[,_\s]/g, '');
  return /^\d+$/.test(t) ? t.replace(/^0+(?=\d)/, '') : v.trim();
};

export function patchOf(was: NotificationSettingsLike, v: NotificationValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const balance = v.balance.trim() === '' ? null : digits(v.balance);
  if (balance !== was.balanceThresholdMicros) out.balanceThresholdMicros = balance;
  const runwayText = v.runway.trim();
  const runway = runwayText === '' ? null : /^\d+$/.test(runwayText) ? Number(runwayText) : Number.isFinite(Number(runwayText)) ? Number(runwayText) : runwayText;
  if (runway !== was.runwayThresholdDays) out.runwayThresholdDays = runway;
  if (v.escalationAlert !== was.escalationAlert) out.escalationAlert = v.escalationAlert;
  if (v.digestCadence !== was.digestCadence) out.digestCadence = v.digestCadence;
  const url = v.webhookUrl.trim() === '' ? null : v.webhookUrl.trim();
  if (url !== was.webhookUrl) out.webhookUrl = url;
  if (v.channel !== was.channel) out.channel = v.channel;
  return out;
}
