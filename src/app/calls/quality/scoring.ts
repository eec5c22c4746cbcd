// Asynchronous QA scoring (spec §2 QA score, D5): after a call is settled, a worker job scores
// the response on the four dimensions and writes the score to the call-log row and the ledger
// entry (the learning outbox's event reads it from the call log). It never sits in the request
// path. The deterministic inline check is always applied; with QA_JUDGE_ENABLED a judge model is
// also asked, through the service itself (billed and ledgered like any call, on the channel
// 'qa:judge', and never judged in turn). With the judge off (D5a) a non-streamed call's full score
// is the inline check the call path computed: it is written by the settlement itself
// (calls/settle.ts), so only streamed calls are left here.
import type { Services } from '../../shared/index.ts';
import type { CanonicalRequest, CanonicalResponse } from '../../../core/canonical/types.ts';
import { inlineCheck, qaDocument, QA_METHOD_VERSION, type QaScore } from '../../../core/quality/index.ts';
import { recordQaScores } from '../../money/index.ts';
import { runCall } from '../pipeline.ts';
import { asyncCommit, claimUnscored, type PendingScore } from './quality.repo.ts';

export { QA_METHOD_VERSION };
export const JUDGE_CHANNEL = 'qa:judge';
/** Calls per run; smaller with the judge on, whose calls hold the claimed rows longer. */
const BATCH = 200;
const JUDGE_BATCH = 20;

type Pending = PendingScore;

const clamp = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : null);

/** Ask a judge model, through the service, for the four dimensions; null when it cannot answer. */
async function judge(s: Services, p: Pending, req: CanonicalRequest, res: CanonicalResponse): Promise<Omit<QaScore, 'reasons'> | null> {
  if (!p.key_id) return null;
  const prompt = req.messages.map((m) => m.content.map((c) => (c.type === 'text' ? c.text : '')).join('')).join('\n').slice(0, 6000);
  const answer = res.content.map((c) => (c.type === 'text' ? c.text : `${c.name}(${c.arguments})`)).join('').slice(0, 6000);
  const schema = {
    type: 'object',
    properties: {
      accuracy: { type: 'number' },
      structure: { type: 'number' },
      hallucinationRisk: { type: 'number' },
      instructionFidelity: { type: 'number' },
    },
    required: ['accuracy', 'structure', 'hallucinationRisk', 'instructionFidelity'],
  };
  const out = await runCall(
    s,
    s.calls,
    {
      shape: 'openai',
      surface: 'chat',
      vendorLocked: false,
      channel: JUDGE_CHANNEL,
      principal: { keyId: p.key_id, tenantId: p.tenant_id, projectId: p.project_id, environment: 'production', expiresAt: null, revokedAt: null },
      signal: AbortSignal.timeout(30_000),
      body: {
        model: 'qa-judge',
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'qa_score', schema } },
        messages: [
          { role: 'system', content: (req.system ? `The assistant was instructed: ${req.system.slice(0, 2000)}\n` : '') + 'You grade an AI answer. Return JSON with accuracy, structure, hallucinationRisk and instructionFidelity, each between 0 and 1.' },
          { role: 'user', content: `PROMPT:\n${prompt}\n\nANSWER:\n${answer}` },
        ],
      },
    },
    () => {
      throw new Error('the judge call is not streamed');
    },
  ).catch((e) => {
    s.log.warn(e, 'qa judge call failed');
    return null;
  });
  if (!out || out.kind !== 'json') return null;
  const content = (out.body as { choices?: Array<{ message?: { content?: string } }> }).choices?.[0]?.message?.content;
  try {
    const j = JSON.parse(content ?? '') as Record<string, unknown>;
    const a = clamp(j.accuracy), st = clamp(j.structure), h = clamp(j.hallucinationRisk), f = clamp(j.instructionFidelity);
    if (a === null || st === null || h === null || f === null) return null;
    return { accuracy: a, structure: st, hallucinationRisk: h, instructionFidelity: f };
  } catch {
    return null;
  }
}

/** The full score of one call: the inline check, blended with the judge when it answered. */
export async function scoreOne(s: Services, p: Pending): Promise<Record<string, unknown> | null> {
  const req = p.request as CanonicalRequest;
  const res = p.response as CanonicalResponse | null;
  if (!req?.messages || !res?.content) return null;
  const inline = inlineCheck(req, res);
  let q: Omit<QaScore, 'reasons'> = inline;
  let method = 'inline';
  if (s.config.QA_JUDGE_ENABLED && p.channel !== JUDGE_CHANNEL) {
    const j = await judge(s, p, req, res);
    if (j) {
      // The judge refines, the deterministic findings still count: average the dimensions, and
      // keep the higher hallucination risk (either one spotting fabrication is enough).
      q = {
        accuracy: (inline.accuracy + j.accuracy) / 2,
        structure: (inline.structure + j.structure) / 2,
        instructionFidelity: (inline.instructionFidelity + j.instructionFidelity) / 2,
        hallucinationRisk: Math.max(inline.hallucinationRisk, j.hallucinationRisk),
      };
      method = 'inline+judge';
    }
  }
  return qaDocument(q, inline.reasons, Number(p.quality_floor), method);
}

/**
 * Score up to one batch of settled, unscored calls. Rows are claimed with SKIP LOCKED, so several
 * workers share the backlog without scoring a call twice. Scores are computed first, then the
 * whole batch is written in one statement (calls without a score only get `qa_scored_at`), still
 * inside the claiming transaction so a crash leaves the rows unscored for the next run.
 */
export async function scorePending(s: Services, limit = s.config.QA_JUDGE_ENABLED ? JUDGE_BATCH : BATCH): Promise<number> {
  return s.db.transaction().execute(async (tx) => {
    const rows = await claimUnscored(tx, limit);
    if (rows.length === 0) return 0;
    // A score lost in a database crash leaves its call unscored, to be scored again: no disk wait.
    await asyncCommit(tx);
    const scores = [];
    // One at a time: with the judge on, each score is a call through the service.
    for (const p of rows) scores.push({ tenantId: p.tenant_id, callId: p.id, qa: await scoreOne(s, p) });
    await recordQaScores(tx, s.clock.now(), scores);
    return rows.length;
  });
}
