// POST /api/copy-paste (D13, tier 5): request and answer. Imported by the web app's form (zod only).
import { z } from 'zod';

export const COPY_PASTE_PROMPT_MAX = 100_000;
export const COPY_PASTE_SYSTEM_MAX = 20_000;

export const copyPasteBody = z.strictObject({
  projectId: z.uuid({ message: 'Choose a project' }),
  prompt: z
    .string({ message: 'Paste a prompt' })
    .refine((v) => v.trim().length > 0, 'Paste a prompt')
    .refine((v) => v.length <= COPY_PASTE_PROMPT_MAX, `The prompt is longer than ${COPY_PASTE_PROMPT_MAX.toLocaleString('en-US')} characters: shorten it`),
  system: z
    .string()
    .refine((v) => v.length <= COPY_PASTE_SYSTEM_MAX, `The system text is longer than ${COPY_PASTE_SYSTEM_MAX.toLocaleString('en-US')} characters: shorten it`)
    .nullish(),
});

const micros = z.string().regex(/^-?\d+$/);
export const copyPasteAnswer = z.object({
  text: z.string().describe('the answer to paste back'),
  callId: z.string().describe('the call id, as in the ledger and the activity feed'),
  projectId: z.string(),
  modelClass: z.string().describe('economy, standard, premium or frontier'),
  costMicros: micros.describe('wallet tokens debited for this answer, escalated attempts included'),
  savingsTokens: micros.nullable().describe('tokens saved against the benchmark provider; null when none is chosen'),
  benchmarkProvider: z.string().nullable().describe('the brand savings are measured against'),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
});
