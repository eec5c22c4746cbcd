// The sandbox processor's checkout (D11): GET shows a small page clearly labelled as a sandbox;
// POST …/confirm completes the payment the way a processor webhook would (checkout started →
// payment confirmed → WALLET_TOPUP entry). Public by design, like a processor's hosted page: the
// checkout id is an unguessable 24-character token.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { confirmSandboxCheckout, getSandboxCheckout } from '../../../app/money/index.ts';
import { formatUsd2 } from '../../../core/money.ts';
import { appError } from '../../../core/errors.ts';
import { SANDBOX_CHECKOUT_PATH, sandboxSavedMethod } from '../../../infra/payments/sandbox.ts';
import { envelope, microsString, ok, type App, type RouteModule } from '../common.ts';

const params = z.strictObject({ checkoutId: z.string().regex(/^cs_sandbox_[0-9A-Za-z]{24}$/, 'is not a sandbox checkout id') });
const confirmResult = z.object({
  topupId: z.string().nullable(),
  status: z.enum(['checkout_started', 'credited', 'failed']).nullable(),
  credited: z.boolean(),
  balanceAfterMicros: microsString.nullable(),
});

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#111}
.banner{background:#fff3cd;border:1px solid #e0c36a;padding:.6rem .8rem;border-radius:6px;font-weight:600}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:6px;border:0;background:#1f6feb;color:#fff;cursor:pointer}
.done{color:#116329}.err{color:#b42318}`;

/**
 * The page runs no script and loads nothing: its policy allows only its own inline style (by hash)
 * and a form posted back to this service, and no framing, so it cannot be dressed up inside another
 * site (issue 22 item 9). No Referer leaves it: the checkout id is in its URL.
 */
export const CHECKOUT_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(checkoutId: string, c: { amountMicros: bigint; status: string; tenantName: string; expired: boolean }): string {
  const amount = `$${formatUsd2(c.amountMicros)}`;
  const body =
    c.status === 'credited'
      ? `<p class="done">Paid. ${escapeHtml(amount)} was added to the wallet.</p>`
      : c.status === 'failed' || c.expired
        ? `<p class="err">This checkout can no longer be paid.</p>`
        : `<form method="post" action="${SANDBOX_CHECKOUT_PATH}/${checkoutId}/confirm"><button type="submit">Pay ${escapeHtml(amount)} (sandbox)</button></form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox payment — no real money</title>
<style>${STYLE}</style></head>
<body><p class="banner">Sandbox payment — no real money</p>
<h1>Add ${escapeHtml(amount)} to your Switchboard wallet</h1>
<p>Account: ${escapeHtml(c.tenantName)}</p>
<p>The sandbox card •••• 4242 is charged nothing and is saved for automatic top-ups.</p>
${body}
<p><a href="/billing">Back to billing in Switchboard</a></p>
</body></html>`;
}

const route: RouteModule = (app, s) => {
  app.register(async (scope: App) => {
    // The page's own form posts application/x-www-form-urlencoded with no fields.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));

    scope.get(`${SANDBOX_CHECKOUT_PATH}/:checkoutId`, { schema: { params } }, async (req, reply) => {
      if (s.payments.name !== 'sandbox') throw appError('not_found', 'The sandbox processor is not in use');
      const c = await getSandboxCheckout(s, req.params.checkoutId);
      if (!c) throw appError('not_found', 'No such checkout');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', CHECKOUT_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .send(page(req.params.checkoutId, c));
    });

    scope.post(
      `${SANDBOX_CHECKOUT_PATH}/:checkoutId/confirm`,
      { schema: { params, body: z.strictObject({}).nullish(), response: { 200: envelope(confirmResult) } } },
      async (req, reply) => {
        const r = await confirmSandboxCheckout(s, req.params.checkoutId, { processor: 'sandbox', ...sandboxSavedMethod() });
        // A person pressing the page's button goes back to the page, which now says "Paid".
        if (String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
          return reply.redirect(`${SANDBOX_CHECKOUT_PATH}/${req.params.checkoutId}`, 303);
        }
        return ok({ ...r, balanceAfterMicros: r.balanceAfterMicros === null ? null : r.balanceAfterMicros.toString() });
      },
    );
  });
};
export default route;
