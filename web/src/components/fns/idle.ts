// Idle sign-out in the browser (D2, issue 16 item 2): the user's setting as milliseconds, and the
// rule that decides. Activity is shared by the tabs of one browser through localStorage, so a
// person working in one tab is not signed out by another left open in the background.
export const IDLE_CHOICE_MS: Record<string, number | null> = {
  '15min': 15 * 60_000,
  '1h': 3_600_000,
  '4h': 4 * 3_600_000,
  '24h': 24 * 3_600_000,
  never: null,
};
export const IDLE_LABELS: Record<string, string> = { '15min': '15 minutes', '1h': '1 hour', '4h': '4 hours', '24h': '24 hours', never: 'Never' };
export const ACTIVITY_KEY = 'switchboard.lastActivity';

/** Whether a session idle since `lastActivity` (epoch ms) is over the limit at `now`. */
export function isIdle(choice: string | undefined, lastActivity: number, now: number): boolean {
  const ms = choice ? IDLE_CHOICE_MS[choice] : null;
  return ms != null && now - lastActivity >= ms;
}

/** Set just before an idle sign-out, so the sign-in page can say why whichever way it was reached. */
export const IDLE_REASON_KEY = 'switchboard.signedOutIdle';
