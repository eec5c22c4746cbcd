/** Where to go after sign-in: only a path on this site (never another origin), else /overview. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/overview';
  if (next.startsWith('/login')) return '/overview';
  return next;
}
