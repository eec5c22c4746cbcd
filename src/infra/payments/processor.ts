// The payment processor boundary (D11): the sandbox (default) and Stripe implement the same
// interface, so top-ups, auto-top-ups and invoices never know which one took the money. The
// service never sees card data: only the processor's references (checkout, customer, method).
import type { PaymentProcessorName } from '../../store/schema.ts';

export interface CheckoutRequest {
  topupId: string;
  tenantId: string;
  amountMicros: bigint;
  /** The processor's customer for this tenant, when a previous checkout created one. */
  customerRef: string | null;
  /** Base URL for return links and hosted pages. */
  publicUrl: string;
}

export interface CheckoutSession {
  /** The processor's checkout id (the sandbox's cs_sandbox_…, Stripe's cs_…). */
  processorRef: string;
  /** Where the payer goes to pay. */
  checkoutUrl: string;
}

export interface SavedMethod {
  customerRef: string | null;
  methodRef: string | null;
}

export interface ChargeRequest {
  topupId: string;
  tenantId: string;
  amountMicros: bigint;
  method: SavedMethod;
}

export type ChargeResult =
  | { status: 'succeeded'; processorRef: string }
  /** Accepted but not final: the processor's webhook completes it. */
  | { status: 'pending'; processorRef: string }
  | { status: 'failed'; processorRef: string | null; reason: string };

/** A verified processor notification, reduced to what the top-up state machine needs. */
export type ProcessorEvent =
  | {
      kind: 'checkout_completed';
      eventId: string;
      processorRef: string;
      topupId: string | null;
      paid: boolean;
      customerRef: string | null;
      methodRef: string | null;
      /** The processor's payment (Stripe PaymentIntent) that refund events will name. */
      paymentRef?: string | null;
    }
  | { kind: 'payment_succeeded'; eventId: string; processorRef: string; topupId: string | null }
  | { kind: 'payment_failed'; eventId: string; processorRef: string; topupId: string | null; reason: string }
  /** Money returned to the payer: the cumulative amount refunded on that payment. */
  | { kind: 'refunded'; eventId: string; type: string; paymentRef: string; topupId: string | null; totalRefundedMicros: bigint }
  | { kind: 'ignored'; eventId: string; type: string };

export class WebhookSignatureError extends Error {}

export interface PaymentProcessor {
  readonly name: PaymentProcessorName;
  /** Start a hosted checkout for a top-up. */
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /** Charge the saved payment method off-session (auto-top-up). Throws only on transient failures (retried). */
  chargeSaved(req: ChargeRequest): Promise<ChargeResult>;
  /**
   * Verify a webhook's signature over the raw body and decode it; throws WebhookSignatureError.
   * Absent on the sandbox, whose confirm page plays the webhook's part.
   */
  parseWebhook?(rawBody: Buffer, signature: string | undefined, receivedAt: Date): ProcessorEvent;
}
