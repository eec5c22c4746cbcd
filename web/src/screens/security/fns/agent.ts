// A session's device in words from its User-Agent ("Chrome on Linux"), for the sessions table.
export function describeAgent(ua: string | null): string {
  if (!ua) return 'Unknown device';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /(Chrome|Chromium)\//.test(ua)
          ? /HeadlessChrome/.test(ua)
            ? 'Headless Chrome'
            : 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /^node|undici|curl|python|Go-http/i.test(ua)
              ? 'Script or CLI'
              : 'Browser';
  const os = /Windows/.test(ua) ? 'Windows' : /Android/.test(ua) ? 'Android' : /iPhone|iPad|iOS/.test(ua) ? 'iOS' : /Mac OS X|Macintosh/.test(ua) ? 'macOS' : /Linux|X11/.test(ua) ? 'Linux' : '';
  return os ? `${browser} on ${os}` : browser;
}

/** Audit events as sentences' subjects. */
export const AUDIT_LABELS: Record<string, string> = {
  login: 'Signed in',
  logout: 'Signed out',
  login_failed: 'Failed sign-in',
  token_created: 'Access token created',
  token_revoked: 'Access token revoked',
  session_revoked: 'Session revoked',
  session_idle_expired: 'Signed out after inactivity',
  refresh_reuse_detected: 'Session ended: refresh token reused',
  password_changed: 'Password changed',
  password_reset: 'Password reset by e-mail link',
  email_verified: 'E-mail verified',
  tenant_switched: 'Switched team',
  key_rotated: 'API key rotated',
  key_created: 'API key created',
  key_revoked: 'API key revoked',
  signup: 'Account created',
  account_locked: 'Account locked after failed sign-ins',
  password_reset_requested: 'Password reset requested',
  invite_accepted: 'Invitation accepted',
  device_approved: 'Device approved',
  device_denied: 'Device denied',
  ledger_adjusted: 'Ledger adjusted (admin)',
  topup_refunded: 'Top-up refunded (admin)',
};
export const auditLabel = (event: string) => AUDIT_LABELS[event] ?? event.replace(/_/g, ' ');
