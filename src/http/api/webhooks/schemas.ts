import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../../../app/events/index.ts';

export const eventTypeSchema = z.enum(EVENT_TYPES as [EventType, ...EventType[]]);

export const webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  enabled: z.boolean(),
  secretHint: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * Creation and rotation: the only answers that carry the secret. The record is under `webhook`
 * and, for clients that read the spec's fields (url, events, description) at the top, beside it.
 */
export const webhookWithSecret = webhook.extend({ webhook, secret: z.string() });
export const withSecret = (r: { webhook: z.infer<typeof webhook>; secret: string }) => ({ ...r.webhook, ...r });

const fields = {
  url: z.string().trim().min(1).max(2048),
  events: z.array(eventTypeSchema).min(1, 'must name at least one event type').max(EVENT_TYPES.length),
  description: z.string().max(500),
};

export const createWebhookBody = z.strictObject({ ...fields, description: fields.description.default('') });
export const patchWebhookBody = z
  .strictObject({ ...fields, enabled: z.boolean() })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'at least one field is required');

export const delivery = z.object({
  id: z.string(),
  webhookId: z.string(),
  eventType: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  signature: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});

export const deliveryDetail = delivery.extend({
  /** The exact bytes that were signed and sent. */
  body: z.string(),
  attemptLog: z.array(
    z.object({
      attempt: z.number(),
      trigger: z.enum(['scheduled', 'replay']),
      startedAt: z.string(),
      durationMs: z.number(),
      statusCode: z.number().nullable(),
      error: z.string().nullable(),
      responseExcerpt: z.string().nullable(),
      succeeded: z.boolean(),
    }),
  ),
});
