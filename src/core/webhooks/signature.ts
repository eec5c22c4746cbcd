// Webhook signatures (spec §6, D10). Two schemes on every delivery:
// - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256 over the raw body, keyed by the webhook
//   secret exactly as shown to the customer (the whole `whsec_...` string, UTF-8).
// - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`):
//   HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed by the base64-decoded part of the
//   secret after `whsec_`, as every Standard Webhooks library expects.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks: 24 to 64 bytes). */
export const generateWebhookSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

export function serviceSignature(secret: string, body: string | Buffer): string {
  return 'sha256=' + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/** The Standard Webhooks key: the base64 after `whsec_`. */
export function standardWebhooksKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret));
  mac.update(`${id}.${timestampSeconds}.`);
  mac.update(body);
  return 'v1,' + mac.digest('base64');
}

export interface SignedHeaders {
  'content-type': 'application/json';
  'user-agent': string;
  'x-service-event': string;
  'x-service-delivery': string;
  'x-service-signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signDelivery(opts: { secret: string; deliveryId: string; eventType: string; body: string; at: Date }): SignedHeaders {
  const ts = Math.floor(opts.at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Switchboard-Webhooks/1',
    'x-service-event': opts.eventType,
    'x-service-delivery': opts.deliveryId,
    'x-service-signature': serviceSignature(opts.secret, opts.body),
    'webhook-id': opts.deliveryId,
    'webhook-timestamp': String(ts),
    'webhook-signature': standardSignature(opts.secret, opts.deliveryId, ts, opts.body),
  };
}

/** Constant-time check of an `X-Service-Signature` header (what a receiver does). */
export function verifyServiceSignature(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const want = Buffer.from(serviceSignature(secret, body));
  const got = Buffer.from(header);
  return want.length === got.length && timingSafeEqual(want, got);
}
