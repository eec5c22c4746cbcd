// POST /v1/messages/count_tokens and /v1/messages-proxy/v1/messages/count_tokens (D19): the
// messages shape's token counter, answered in its own shape `{input_tokens}`. Claude Code and the
// Anthropic SDK's `messages.countTokens` call it before a turn. The count is the gateway's own
// estimate of the prompt (the one reservations use), whatever model would serve it: counting is
// free, so nothing is routed, reserved or ledgered.
import { appError } from '../../core/errors.ts';
import { estimateInputTokens } from '../../core/pricing/estimate.ts';
import { WIRES } from '../../wire/index.ts';
import type { RouteModule } from '../api/common.ts';
import { authenticateKey, rateLimit } from './scope.ts';

const route: RouteModule = (app, s) => {
  for (const path of ['/v1/messages/count_tokens', '/v1/messages-proxy/v1/messages/count_tokens']) {
    app.post(path, { config: { shape: 'anthropic' } }, async (req, reply) => {
      const principal = await authenticateKey(s, req, 'anthropic');
      await rateLimit(s, reply, 'messages', principal.tenantId);
      const body = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : null;
      if (!body) throw appError('validation', "Invalid 'body': expected a JSON object.", { field: 'body' });
      // The counter takes no `max_tokens` (nothing is generated); the parser of a call wants one.
      const parsed = WIRES.anthropic.parseRequest({ ...body, max_tokens: 1, stream: false });
      if (!parsed.ok) throw appError('validation', parsed.message, { field: parsed.field });
      return { input_tokens: estimateInputTokens(parsed.value) };
    });
  }
};
export default route;
