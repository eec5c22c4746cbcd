// Dollar fields of the billing forms to the API's micros strings. Text that is not an amount is
// passed on as it is, so the API's own schema reports it in its own words.
import { usdToMicros } from '../../../components/fns/money.ts';

export const dollarsField = (input: string): string => usdToMicros(input) ?? (input.trim() === '' ? '' : input.trim());

/** Micros to the dollar text a form starts with ("25000000" → "25.00"). */
export function microsToDollars(micros: string): string {
  const v = BigInt(micros);
  return `${v / 1_000_000n}.${((v % 1_000_000n) / 10_000n).toString().padStart(2, '0')}`;
}
