import { z } from 'zod';
import { TOPUP_MAX_MICROS, TOPUP_MIN_MICROS, isWholeCents } from '../../../core/money.ts';
import type { WalletView } from '../../../app/money/index.ts';
import { microsString, nonNegativeMicros } from '../common.ts';

// D8a: the spec's names (balance, reserved, debited, runway), each amount an integer string of
// micros; available, usdEquivalent, autoTopup and paymentMethod follow as extras.
export const wallet = z.object({
  balance: microsString,
  reserved: microsString,
  available: microsString,
  debited: z.object({ h24: microsString, d7: microsString, d30: microsString }),
  /** Days, or null with no burn. */
  runway: z.number().nullable(),
  usdEquivalent: z.string(),
  autoTopup: z.object({ thresholdMicros: microsString, amountMicros: microsString }).nullable(),
  paymentMethod: z.object({ processor: z.string(), label: z.string() }).nullable(),
});

export const toWalletJson = (w: WalletView): z.infer<typeof wallet> => ({
  balance: w.balanceMicros.toString(),
  reserved: w.reservedMicros.toString(),
  available: w.availableMicros.toString(),
  debited: { h24: w.debited.h24.toString(), d7: w.debited.d7.toString(), d30: w.debited.d30.toString() },
  runway: w.runwayDays,
  usdEquivalent: w.usdEquivalent,
  autoTopup: w.autoTopup ? { thresholdMicros: w.autoTopup.thresholdMicros.toString(), amountMicros: w.autoTopup.amountMicros.toString() } : null,
  paymentMethod: w.paymentMethod,
});

/** A payment amount: $1 to $10,000 inclusive, whole cents (the processor charges cents). */
export const paymentMicros = nonNegativeMicros
  .refine((v) => v >= TOPUP_MIN_MICROS, `must be at least ${TOPUP_MIN_MICROS} ($1)`)
  .refine((v) => v <= TOPUP_MAX_MICROS, `must be at most ${TOPUP_MAX_MICROS} ($10,000)`)
  .refine((v) => isWholeCents(v), 'must be a whole number of cents (a multiple of 10000)');

export const topupBody = z.strictObject({ amountMicros: paymentMicros });
export const topupResult = z.object({
  topupId: z.string(),
  checkoutId: z.string(),
  checkoutUrl: z.string(),
  amountMicros: microsString,
});

export const autoTopupBody = z.strictObject({
  thresholdMicros: nonNegativeMicros.refine((v) => v <= TOPUP_MAX_MICROS, `must be at most ${TOPUP_MAX_MICROS}`),
  amountMicros: paymentMicros,
});
