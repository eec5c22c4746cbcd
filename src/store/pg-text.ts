// What PostgreSQL cannot store: text and jsonb hold no NUL character, and jsonb no lone UTF-16
// surrogate, though JSON allows both ("\u0000", "\ud800") and a client may send either in a prompt.
// Rather than fail a call that was already delivered (its settlement must commit, D8), the stored
// copy carries U+FFFD (the replacement character) in their place. Everything else is unchanged.

/**
 * JSON text (as JSON.stringify writes it) that jsonb accepts: every \u0000 escape and every escaped
 * surrogate becomes \ufffd. JSON.stringify escapes a surrogate only when it is unpaired, and NUL only
 * as \u0000; an escaped backslash followed by "u0000" is text and is left alone.
 */
export function jsonForPg(json: string): string {
  if (!json.includes('\\u')) return json;
  return json.replace(/(\\+)u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})/g, (m, slashes: string) => (slashes.length % 2 === 1 ? `${slashes}ufffd` : m));
}

/** Text that a text column accepts: NUL characters become U+FFFD (lone surrogates are replaced by the UTF-8 encoder). */
export function textForPg(s: string): string;
export function textForPg(s: string | null): string | null;
export function textForPg(s: string | null): string | null {
  return s !== null && s.includes('\0') ? s.replaceAll('\0', '\ufffd') : s;
}
