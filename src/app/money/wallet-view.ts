// The wallet as the tenant sees it (spec §2 Wallet, §4 GET /api/tenant/wallet) and its
// auto-top-up rule. Amounts are bigint here and decimal strings at the edge (D1).
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { TOPUP_MAX_MICROS, formatUsd2 } from '../../core/money.ts';
import { checkTopupAmount } from './topups.ts';
import { ledgerSums } from './ledger-rollups.repo.ts';
import { savedMethodFor, setAutoTopupRule, walletWithPaymentMethod } from './wallet-view.repo.ts';

export interface WalletView {
  balanceMicros: bigint;
  reservedMicros: bigint;
  /** balance − reserved: what a new call can reserve. */
  availableMicros: bigint;
  /** AI usage debited in the trailing 24 hours, 7 days and 30 days. */
  debited: { h24: bigint; d7: bigint; d30: bigint };
  /** balance ÷ (7-day debits ÷ 7), one decimal; null when nothing was spent in 7 days. */
  runwayDays: number | null;
  /** The balance in US dollars, two decimals, truncated ("10.00"). */
  usdEquivalent: string;
  autoTopup: { thresholdMicros: bigint; amountMicros: bigint } | null;
  /** The card auto-top-up charges, as the processor labels it; never card data. */
  paymentMethod: { processor: string; label: string } | null;
}

export async function getWalletView(s: Services, tenantId: string): Promise<WalletView> {
  const now = s.clock.now();
  const row = await walletWithPaymentMethod(s.db, tenantId);
  // Debits in (now − 24 h, now], (now − 7 d, now] and (now − 30 d, now], through the hourly rollups.
  const to = new Date(now.getTime() + 1);
  const since = (ms: number) => new Date(now.getTime() - ms + 1);
  const [h24, d7, d30] = await Promise.all([since(86_400_000), since(7 * 86_400_000), since(30 * 86_400_000)].map((from) => ledgerSums(s.db, tenantId, from, to)));
  if (!row) throw appError('not_found', 'The tenant has no wallet');
  const w = { ...row, h24: h24![0]!.burn, d7: d7![0]!.burn, d30: d30![0]!.burn };
  // Runway in tenths of a day, in integers: balance × 7 × 10 ÷ 7-day burn. A count of days is not
  // money, so it leaves bigint only as the final ratio.
  const runwayTenths = w.d7 > 0n ? (w.balance_micros * 70n) / w.d7 : null;
  const runwayDays = runwayTenths === null ? null : Number(runwayTenths) / 10;
  return {
    balanceMicros: w.balance_micros,
    reservedMicros: w.reserved_micros,
    availableMicros: w.balance_micros - w.reserved_micros,
    debited: { h24: w.h24, d7: w.d7, d30: w.d30 },
    runwayDays,
    usdEquivalent: formatUsd2(w.balance_micros),
    autoTopup:
      w.auto_topup_threshold_micros !== null && w.auto_topup_amount_micros !== null
        ? { thresholdMicros: w.auto_topup_threshold_micros, amountMicros: w.auto_topup_amount_micros }
        : null,
    paymentMethod: w.pm_processor && w.pm_label ? { processor: w.pm_processor, label: w.pm_label } : null,
  };
}

/**
 * Save the rule (admin). It charges the card saved by a completed checkout, so one must exist for
 * the processor in use. Saving (re-)arms the rule: the next settlement that finds the balance
 * below the threshold triggers one charge.
 */
export async function setAutoTopup(s: Services, tenantId: string, rule: { thresholdMicros: bigint; amountMicros: bigint }): Promise<WalletView> {
  checkTopupAmount(rule.amountMicros, 'amountMicros');
  if (rule.thresholdMicros < 0n || rule.thresholdMicros > TOPUP_MAX_MICROS) {
    throw appError('validation', `thresholdMicros must be between 0 and ${TOPUP_MAX_MICROS}`, { field: 'thresholdMicros' });
  }
  const pm = await savedMethodFor(s.db, tenantId, s.payments.name);
  if (!pm) throw appError('conflict', 'No saved payment method: complete a top-up first, auto-top-up charges the card used there');
  await setAutoTopupRule(s.db, tenantId, rule, s.clock.now());
  return getWalletView(s, tenantId);
}

export async function clearAutoTopup(s: Services, tenantId: string): Promise<WalletView> {
  await setAutoTopupRule(s.db, tenantId, { thresholdMicros: null, amountMicros: null }, s.clock.now());
  return getWalletView(s, tenantId);
}
