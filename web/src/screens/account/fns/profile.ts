// The /account profile form: which fields changed (the PATCH carries only those, so an untouched
// e-mail never starts a change), and the time zones a person can pick from.
import type { Profile } from '../../../api/types.ts';

export interface ProfileValues {
  name: string;
  email: string;
  timezone: string;
  bio: string;
  avatarUrl: string;
}

export const valuesOf = (p: Profile): ProfileValues => ({
  name: p.name,
  email: p.pendingEmail ?? p.email,
  timezone: p.timezone,
  bio: p.bio ?? '',
  avatarUrl: p.avatarUrl ?? '',
});

/** The PATCH body: changed fields only, blanks as null for the optional ones. */
export function changedFields(p: Profile, v: ProfileValues): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const was = valuesOf(p);
  if (v.name !== was.name) out.name = v.name;
  if (v.email.trim() !== was.email) out.email = v.email.trim();
  if (v.timezone !== was.timezone) out.timezone = v.timezone;
  if (v.bio !== was.bio) out.bio = v.bio.trim() === '' ? null : v.bio;
  if (v.avatarUrl.trim() !== was.avatarUrl) out.avatarUrl = v.avatarUrl.trim() === '' ? null : v.avatarUrl.trim();
  return out;
}

/**
 * ICU (in V8 and so in the browser) lists some zones under their old IANA names (Asia/Calcutta,
 * Europe/Kiev, Asia/Saigon). People search for today's names, so those are listed as well.
 */
const CURRENT_NAMES: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Europe/Kiev': 'Europe/Kyiv',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'America/Godthab': 'America/Nuuk',
  'Asia/Rangoon': 'Asia/Yangon',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
};
const isZone = (z: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: z });
    return true;
  } catch {
    return false;
  }
};

/** Every IANA time zone the browser knows (plus today's names of renamed ones), UTC first. */
export function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const set = new Set(all.filter((z) => z !== 'UTC'));
  for (const [old, now] of Object.entries(CURRENT_NAMES)) if (set.has(old) && isZone(now)) set.add(now);
  return ['UTC', ...[...set].sort()];
}

/** Two letters for an avatar without a picture. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[parts.length - 1][0] : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}
