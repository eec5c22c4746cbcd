// Shared pieces of the /api surface: the typed Fastify instance, the envelope (spec §2) and the
// schemas every resource reuses (ids, money as decimal strings, pages).
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../app/shared/index.ts';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
export type RouteModule = (app: App, s: Services) => void;

export const ok = <T>(data: T) => ({ success: true as const, data });
export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
export const emptyData = envelope(z.object({}));

export const idParams = z.strictObject({ id: z.uuid({ message: 'must be a UUID' }) });
/** Money and token amounts at the edge: a decimal integer string, parsed to bigint (D1). */
export const microsString = z.string().regex(/^-?\d{1,19}$/, 'must be an integer string of micros');
export const nonNegativeMicros = z
  .union([z.string().regex(/^\d{1,19}$/, 'must be a non-negative integer string'), z.int().nonnegative()])
  .transform((v) => BigInt(v))
  .refine((v) => v <= 9_223_372_036_854_775_807n, 'is too large');
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });
export const pageQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(512).optional(),
});
