// Form validation with the API's own zod schemas (D13): a form's values go through the very
// schema the route validates with, and each issue lands on its field.
import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

export function validate<S extends z.ZodType>(schema: S, values: unknown): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors } {
  const r = schema.safeParse(values);
  if (r.success) return { ok: true, data: r.data };
  const errors: FieldErrors = {};
  for (const issue of r.error.issues) {
    const key = String(issue.path[0] ?? '_');
    errors[key] ??= sentence(issue.message);
  }
  return { ok: false, errors };
}

/** "must be at least 12 characters" → "Must be at least 12 characters." */
export const sentence = (m: string) => {
  const t = m.trim();
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
};
