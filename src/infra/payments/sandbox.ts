// The sandbox processor (the default, D11): no money moves. A checkout is a page served by this
// service (src/http/api/billing/sandbox.route.ts) whose confirm button completes the payment the
// way a processor webhook would; the saved "card" is a sandbox reference that always succeeds.
import { randomBytes } from 'node:crypto';
import { base62 } from '../../core/tokens.ts';
import type { ChargeRequest, ChargeResult, CheckoutRequest, CheckoutSession, PaymentProcessor } from './processor.ts';

// base62() rejects about 3 % of bytes to stay unbiased; drawing twice the bytes needed makes
// running short (it throws) vanishingly unlikely (below 1e-14 per token).
const token = (length: number) => base62(randomBytes(length * 2), length);

export const SANDBOX_CHECKOUT_PATH = '/api/billing/sandbox/checkout';

export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox' as const;

  async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
    const processorRef = `cs_sandbox_${token(24)}`;
    return { processorRef, checkoutUrl: `${req.publicUrl}${SANDBOX_CHECKOUT_PATH}/${processorRef}` };
  }

  async chargeSaved(req: ChargeRequest): Promise<ChargeResult> {
    if (!req.method.methodRef?.startsWith('pm_sandbox_')) {
      return { status: 'failed', processorRef: null, reason: 'no sandbox payment method is saved' };
    }
    // Deterministic per top-up, like an idempotency key: a retried job gets the same payment.
    return { status: 'succeeded', processorRef: `pi_sandbox_${req.topupId.replace(/-/g, '')}` };
  }
}

/** What a confirmed sandbox checkout saves for later off-session charges. */
export function sandboxSavedMethod(): { customerRef: string; methodRef: string; label: string } {
  return {
    customerRef: `cus_sandbox_${token(14)}`,
    methodRef: `pm_sandbox_${token(14)}`,
    label: 'Sandbox card •••• 4242',
  };
}
