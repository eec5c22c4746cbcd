// Tier 5, copy-paste (spec §1 "Connector tiers", D13): the user pastes a prompt into the web app
// and gets the answer to paste back. It is an ordinary routed call through the proxy's own path
// (runCall: Layer 1 and 2, admission against the wallet and the project's budget, delivery with
// the inline check and escalation, settlement with the sealed ledger entry, the call log and the
// llm.call event), attributed to channel `copy-paste`. No service key is involved: the call-log
// row's key is null and the signed-in user is the actor.
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { getProject } from '../projects/index.ts';
import { runCall } from '../calls/index.ts';
import { getBaseline } from '../money/index.ts';
import { BRANDS } from '../../core/providers.ts';


export interface CopyPasteInput {
  tenantId: string;
  userId: string;
  projectId: string;
  prompt: string;
  system?: string | null;
  /** The call log's channel: `copy-paste`, or `copy-paste:connection-test` for the tile's test. */
  channel?: string;
  signal: AbortSignal;
}

export async function copyPaste(s: Services, input: CopyPasteInput) {
  const project = await getProject(s.db, input.tenantId, input.projectId);
  const messages: Array<{ role: string; content: string }> = [];
  if (input.system && input.system.trim()) messages.push({ role: 'system', content: input.system });
  messages.push({ role: 'user', content: input.prompt });
  const out = await runCall(
    s,
    s.calls,
    {
      shape: 'openai',
      surface: 'chat',
      vendorLocked: false,
      channel: input.channel ?? 'copy-paste',
      principal: { keyId: null, tenantId: input.tenantId, projectId: project.id, environment: 'production', expiresAt: null, revokedAt: null },
      signal: input.signal,
      body: { model: 'auto', messages },
    },
    () => {
      throw new Error('copy-paste answers are not streamed');
    },
  );
  if (out.kind !== 'json') throw appError('upstream_failed');
  const body = out.body as { choices?: Array<{ message?: { content?: unknown } }>; usage?: { prompt_tokens?: number; completion_tokens?: number } };
  const content = body.choices?.[0]?.message?.content;
  const text = typeof content === 'string' ? content : '';
  // The benchmark this call was priced against: the project's override, else the tenant's choice.
  const benchmark = project.benchmarkOverride ? BRANDS[project.benchmarkOverride].name : (await getBaseline(s.db, input.tenantId)).brand;
  // 'null' (no benchmark provider) or a figure (D6, D7).
  const h = out.headers['x-service-tokens-saved'];
  const saved = h !== undefined && /^-?\d+$/.test(h) ? h : null;
  return {
    text,
    callId: out.headers['x-service-call-id'],
    projectId: project.id,
    modelClass: out.headers['x-service-model-class'],
    costMicros: out.headers['x-service-cost-micros'] ?? '0',
    savingsTokens: saved,
    benchmarkProvider: benchmark,
    inputTokens: body.usage?.prompt_tokens ?? 0,
    outputTokens: body.usage?.completion_tokens ?? 0,
  };
}
