// Stripe (when STRIPE_SECRET_KEY is set, D11): top-ups are Checkout Sessions that also save the
// card for off-session use; auto-top-ups are off-session PaymentIntents on that card; completion
// arrives by webhook, verified with Stripe's own constructEvent over the raw body.
// The SDK is imported when a processor is created (only with STRIPE_SECRET_KEY set): a server on the
// sandbox never loads it (≈ 7 MB of RSS at start-up).
import type Stripe from 'stripe';
import { MICROS_PER_CENT, isWholeCents } from '../../core/money.ts';
import {
  WebhookSignatureError,
  type ChargeRequest,
  type ChargeResult,
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentProcessor,
  type ProcessorEvent,
} from './processor.ts';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** API base (stripe-mock or a test double); default https://api.stripe.com. */
  apiBase?: string;
}

/** Stripe's largest single charge, $999,999.99. */
const STRIPE_MAX_CENTS = 99_999_999n;

/**
 * The one place an amount becomes a JS number: Stripe's API takes integer cents as a number. The
 * value is checked to be whole cents and far below 2^53 first, so the conversion is exact.
 */
export function stripeCents(micros: bigint): number {
  if (!isWholeCents(micros)) throw new RangeError(`${micros} micros is not a whole number of cents`);
  const cents = micros / MICROS_PER_CENT;
  if (cents <= 0n || cents > STRIPE_MAX_CENTS) throw new RangeError(`${cents} cents is outside Stripe's range`);
  return Number(cents);
}

const idOf = (v: string | { id: string } | null | undefined): string | null => (v == null ? null : typeof v === 'string' ? v : v.id);

export class StripeProcessor implements PaymentProcessor {
  readonly name = 'stripe' as const;

  private constructor(
    private readonly stripe: Stripe,
    private readonly webhookSecret: string,
    /** The SDK's card-decline error class (the SDK module is loaded by `create`). */
    private readonly CardError: typeof Stripe.errors.StripeCardError,
  ) {}

  static async create(opts: StripeOptions): Promise<StripeProcessor> {
    const { default: StripeSdk } = await import('stripe');
    const config: Stripe.StripeConfig = { maxNetworkRetries: 1, telemetry: false, timeout: 20_000 };
    if (opts.apiBase) {
      const u = new URL(opts.apiBase);
      config.host = u.hostname;
      config.port = u.port || (u.protocol === 'http:' ? '80' : '443');
      config.protocol = u.protocol === 'http:' ? 'http' : 'https';
    }
    return new StripeProcessor(new StripeSdk(opts.secretKey, config), opts.webhookSecret, StripeSdk.errors.StripeCardError);
  }

  async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
    const back = `${req.publicUrl}/billing?topup=${req.topupId}`;
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: req.topupId,
        ...(req.customerRef ? { customer: req.customerRef } : { customer_creation: 'always' as const }),
        line_items: [
          {
            quantity: 1,
            price_data: { currency: 'usd', unit_amount: stripeCents(req.amountMicros), product_data: { name: 'Switchboard wallet top-up' } },
          },
        ],
        // Saves the card so auto-top-up can charge it off-session later.
        payment_intent_data: { setup_future_usage: 'off_session', metadata: { topupId: req.topupId, tenantId: req.tenantId, kind: 'checkout' } },
        metadata: { topupId: req.topupId, tenantId: req.tenantId },
        success_url: `${back}&status=success`,
        cancel_url: `${back}&status=cancelled`,
      },
      { idempotencyKey: `checkout-${req.topupId}` },
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
    return { processorRef: session.id, checkoutUrl: session.url };
  }

  async chargeSaved(req: ChargeRequest): Promise<ChargeResult> {
    const customer = req.method.customerRef;
    if (!customer) return { status: 'failed', processorRef: null, reason: 'no Stripe customer is saved' };
    let method = req.method.methodRef;
    if (!method) {
      const list = await this.stripe.paymentMethods.list({ customer, type: 'card', limit: 1 });
      method = list.data[0]?.id ?? null;
    }
    if (!method) return { status: 'failed', processorRef: null, reason: 'the Stripe customer has no saved card' };
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: stripeCents(req.amountMicros),
          currency: 'usd',
          customer,
          payment_method: method,
          off_session: true,
          confirm: true,
          metadata: { topupId: req.topupId, tenantId: req.tenantId, kind: 'auto' },
        },
        // Same key on a retried job: Stripe returns the same PaymentIntent, never a second charge.
        { idempotencyKey: `auto-topup-${req.topupId}` },
      );
      if (pi.status === 'succeeded') return { status: 'succeeded', processorRef: pi.id };
      if (pi.status === 'processing') return { status: 'pending', processorRef: pi.id };
      return { status: 'failed', processorRef: pi.id, reason: `payment intent is ${pi.status}` };
    } catch (e) {
      // Declines (incl. authentication_required off-session) are final; anything else is retried.
      if (e instanceof this.CardError) {
        return { status: 'failed', processorRef: idOf(e.payment_intent as { id: string } | undefined), reason: e.message };
      }
      throw e;
    }
  }

  parseWebhook(rawBody: Buffer, signature: string | undefined, receivedAt: Date): ProcessorEvent {
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('missing Stripe-Signature header');
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, undefined, undefined, receivedAt.getTime());
    } catch (e) {
      throw new WebhookSignatureError((e as Error).message.split('\n')[0]);
    }
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const cs = event.data.object;
        return {
          kind: 'checkout_completed',
          eventId: event.id,
          processorRef: cs.id,
          topupId: cs.metadata?.topupId ?? cs.client_reference_id ?? null,
          paid: cs.payment_status === 'paid',
          customerRef: idOf(cs.customer),
          methodRef: null,
          paymentRef: idOf(cs.payment_intent as string | { id: string } | null),
        };
      }
      case 'charge.refunded': {
        // amount_refunded is cumulative, so replays and reordering book nothing twice.
        const ch = event.data.object;
        const paymentRef = idOf(ch.payment_intent as string | { id: string } | null);
        if (!paymentRef) return { kind: 'ignored', eventId: event.id, type: event.type };
        return {
          kind: 'refunded',
          eventId: event.id,
          type: event.type,
          paymentRef,
          topupId: ch.metadata?.topupId ?? null,
          totalRefundedMicros: BigInt(ch.amount_refunded) * 10_000n,
        };
      }
      case 'payment_intent.succeeded': {
        const pi = event.data.object;
        // A checkout's own PaymentIntent is completed by its checkout.session event.
        if (pi.metadata?.kind !== 'auto') return { kind: 'ignored', eventId: event.id, type: event.type };
        return { kind: 'payment_succeeded', eventId: event.id, processorRef: pi.id, topupId: pi.metadata.topupId ?? null };
      }
      case 'payment_intent.payment_failed': {
        const pi = event.data.object;
        if (pi.metadata?.kind !== 'auto') return { kind: 'ignored', eventId: event.id, type: event.type };
        return {
          kind: 'payment_failed',
          eventId: event.id,
          processorRef: pi.id,
          topupId: pi.metadata.topupId ?? null,
          reason: pi.last_payment_error?.message ?? 'payment failed',
        };
      }
      default:
        return { kind: 'ignored', eventId: event.id, type: event.type };
    }
  }
}
