// Picks the processor from configuration: Stripe when STRIPE_SECRET_KEY is set, else the sandbox.
import type { Config } from '../../config.ts';
import type { PaymentProcessor } from './processor.ts';
import { SandboxProcessor } from './sandbox.ts';
import { StripeProcessor } from './stripe.ts';

export async function createPaymentProcessor(cfg: Config): Promise<PaymentProcessor> {
  if (cfg.STRIPE_SECRET_KEY && cfg.STRIPE_WEBHOOK_SECRET) {
    return StripeProcessor.create({ secretKey: cfg.STRIPE_SECRET_KEY, webhookSecret: cfg.STRIPE_WEBHOOK_SECRET, apiBase: cfg.STRIPE_API_BASE });
  }
  return new SandboxProcessor();
}

export type { PaymentProcessor } from './processor.ts';
