// The code a device shows (D14): 8 letters from B C D F G H J K L M N P Q R S T V W X Z, shown as
// XXXX-XXXX. People type it in any case, with or without the dash or spaces; the server accepts
// the same (src/app/identity/device-auth.ts), so this only decides when the form may be sent.
const ALPHABET = /^[BCDFGHJKLMNPQRSTVWXZ]{8}$/;

export const normaliseUserCode = (input: string) => input.toUpperCase().replace(/[^A-Z]/g, '');

/** "bcdfghjk" → "BCDF-GHJK"; partial input is formatted as far as it goes. */
export function formatUserCode(input: string): string {
  const c = normaliseUserCode(input).slice(0, 8);
  return c.length > 4 ? `${c.slice(0, 4)}-${c.slice(4)}` : c;
}

/** Null when the code can be checked, else what is wrong with it. */
export function userCodeProblem(input: string): string | null {
  const c = normaliseUserCode(input);
  if (c.length === 0) return 'Enter the code shown on your device.';
  if (c.length !== 8) return 'The code has 8 letters, like BCDF-GHJK.';
  if (!ALPHABET.test(c)) return 'The code uses consonants only (no vowels, no Y): check it on your device.';
  return null;
}
