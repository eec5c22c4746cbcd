// A call the wallet cannot cover because of its output cap (D19: Claude Code asks for 128,000
// tokens on every turn) is told how many output tokens the wallet can afford on the model class
// the engine chose, and that a lower max_tokens or a top-up lets it through. Runs only on the
// refusal path: one wallet read, never on an admitted call.
import { AppError, appError } from '../../core/errors.ts';
import type { CanonicalRequest } from '../../core/canonical/types.ts';
import type { ModelClass } from '../../core/model-class.ts';
import type { RankedEndpoint } from '../../core/routing/layer2.ts';
import type { Services } from '../shared/index.ts';
import { walletBalance } from '../money/index.ts';

const MILLION = 1_000_000n;

export interface RefusalFacts {
  tenantId: string;
  call: CanonicalRequest;
  modelClass: ModelClass;
  /** The endpoint whose worst case the reservation had to cover. */
  endpoint: RankedEndpoint;
  inputTokens: number;
  worst: bigint;
}

/** Output tokens `availableMicros` pays for after the input, on these prices (never negative). */
export function affordableOutputTokens(availableMicros: bigint, inputTokens: number, prices: { inputMicrosPerMTok: bigint; outputMicrosPerMTok: bigint }): bigint {
  if (prices.outputMicrosPerMTok <= 0n) return 0n;
  const left = availableMicros * MILLION - BigInt(inputTokens) * prices.inputMicrosPerMTok;
  return left > 0n ? left / prices.outputMicrosPerMTok : 0n;
}

export async function explainRefusal(s: Services, e: unknown, f: RefusalFacts): Promise<unknown> {
  if (!(e instanceof AppError) || e.code !== 'insufficient_balance' || f.call.maxTokens === undefined) return e;
  const w = await walletBalance(s.db, f.tenantId);
  if (!w) return e;
  const available = w.balance_micros - w.reserved_micros;
  const tokens = affordableOutputTokens(available > 0n ? available : 0n, f.inputTokens, f.endpoint);
  if (tokens <= 0n) return e;
  return appError(
    'insufficient_balance',
    `The wallet balance cannot cover this call's max_tokens of ${f.call.maxTokens} on the ${f.modelClass} model class it was routed to ` +
      `(up to ${f.worst} USD micros); it can afford about ${tokens} output tokens. ` +
      `Send a lower max_tokens (${tokens} or less), or top up at ${s.publicUrl}/billing, then retry.`,
  );
}
