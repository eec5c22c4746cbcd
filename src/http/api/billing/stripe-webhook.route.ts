// POST /api/billing/stripe/webhook: Stripe's notifications (D11). The signature is verified with
// stripe.webhooks.constructEvent over the exact raw bytes, so this scope keeps JSON bodies raw.
// Public by design; the signature is the authentication. Replays are acknowledged and ignored.
import { z } from 'zod';
import { handleProcessorEvent } from '../../../app/money/index.ts';
import { appError } from '../../../core/errors.ts';
import { WebhookSignatureError } from '../../../infra/payments/processor.ts';
import { envelope, ok, type App, type RouteModule } from '../common.ts';

const result = z.object({ received: z.literal(true), handled: z.string() });

const route: RouteModule = (app, s) => {
  app.register(async (scope: App) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    scope.post('/api/billing/stripe/webhook', { schema: { response: { 200: envelope(result) } } }, async (req) => {
      const parse = s.payments.parseWebhook?.bind(s.payments);
      if (!parse) throw appError('not_found', 'Stripe is not configured');
      if (!Buffer.isBuffer(req.body)) throw appError('validation', 'The webhook body must be JSON');
      const signature = req.headers['stripe-signature'];
      let event;
      try {
        event = parse(req.body, typeof signature === 'string' ? signature : undefined, s.clock.now());
      } catch (e) {
        if (e instanceof WebhookSignatureError) throw appError('validation', `Stripe signature verification failed: ${e.message}`, { field: 'stripe-signature' });
        throw e;
      }
      const r = await handleProcessorEvent(s, event);
      return ok({ received: true as const, handled: r.handled });
    });
  });
};
export default route;
