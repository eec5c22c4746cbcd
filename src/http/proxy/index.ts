// The proxy surface's routes, registered as one scope with vendor-shaped errors.
import chat from './chat.route.ts';
import responses from './responses.route.ts';
import messages from './messages.route.ts';
import countTokens from './count-tokens.route.ts';
import generate from './generate.route.ts';
import models from './models.route.ts';
import health from './health.route.ts';
import { proxyScope } from './scope.ts';

export const proxyRoutes = proxyScope([chat, responses, messages, countTokens, generate, models, health]);
