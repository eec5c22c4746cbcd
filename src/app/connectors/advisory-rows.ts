// Advisory import rows (D14 tier 6): one line of an uploaded history → the facts the report needs
// (what was asked, which model answered, how many tokens), or the reason the line cannot be used.
// Pure functions; the streaming around them is advisory-import.ts.
//
// Accepted lines (D14):
//   NDJSON  {request, response}  a logged call of any of the three client wire shapes; the shape
//                                is recognised by which wire can read the response
//           OpenAI Batch output  {custom_id, response: {status_code, body}, error}; the file holds
//                                no prompt, so the call is classified from the answer's text
//   CSV     timestamp,provider,model,prompt,completion,input_tokens,output_tokens (header row)
import type { CanonicalRequest, CanonicalResponse, ClientShape } from '../../core/canonical/types.ts';
import { allModels, findModel, type PricedModel } from '../../core/pricing/price-book.ts';
import { BRANDS, isProviderKey } from '../../core/providers.ts';
import { WIRES } from '../../wire/index.ts';

export const CSV_COLUMNS = ['timestamp', 'provider', 'model', 'prompt', 'completion', 'input_tokens', 'output_tokens'] as const;

/** A usable row: what Layer 1 reads and what pricing needs. */
export interface AdvisoryRow {
  occurredAt: Date | null;
  provider: string;
  /** The price-book id of the model that really answered. */
  model: string;
  request: CanonicalRequest;
  /** The first words of the prompt, for the per-row report. */
  excerpt: string;
  inputTokens: number;
  outputTokens: number;
}

export type RowResult = { ok: true; row: AdvisoryRow } | { ok: false; error: string };

const bad = (error: string): RowResult => ({ ok: false, error });
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Excerpt length kept per row: enough to recognise a prompt, small enough for 100,000 rows. */
export const EXCERPT_CHARS = 120;

// Longest ids first, so a dated or suffixed id finds its own model ('gpt-4o-mini-2024-07-18' is
// gpt-4o-mini, not gpt-4o).
const BY_LENGTH: PricedModel[] = [...allModels()].sort((a, b) => b.id.length - a.id.length);

/**
 * The price-book model of an id as vendors log it: exact, without a `models/` prefix, or the
 * longest book id it extends with a dated or tagged suffix ('claude-sonnet-4-5-20250929').
 */
export function resolveModel(id: string): PricedModel | undefined {
  const bare = id.trim().replace(/^models\//, '');
  const exact = findModel(bare);
  if (exact) return exact;
  const lower = bare.toLowerCase();
  return BY_LENGTH.find((m) => lower.startsWith(`${m.id}-`) || lower.startsWith(`${m.id}@`) || lower.startsWith(`${m.id}:`));
}

function textOf(req: CanonicalRequest): string {
  for (const m of req.messages) {
    if (m.role !== 'user') continue;
    for (const p of m.content) if (p.type === 'text' && p.text.trim()) return p.text;
  }
  return req.system ?? '';
}

export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
}

function tokenCount(v: unknown): number | null {
  const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function dateOf(v: unknown): Date | null | undefined {
  if (v === undefined || v === null || v === '') return null;
  // Epoch seconds (as vendors' `created`) or milliseconds; otherwise an ISO 8601 string.
  if (typeof v === 'number' || (typeof v === 'string' && /^\d{9,13}$/.test(v.trim()))) {
    const n = Number(v);
    const d = new Date(n < 1e11 ? n * 1000 : n);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  if (typeof v !== 'string') return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function priced(
  modelId: string,
  fields: { occurredAt: Date | null; provider?: string; request: CanonicalRequest; inputTokens: number; outputTokens: number },
): RowResult {
  const model = resolveModel(modelId);
  if (!model) return bad(`model "${modelId.slice(0, 80)}" is not in the price book, so its historical cost is unknown; use one of the models listed at /developer-zone`);
  if (fields.inputTokens + fields.outputTokens === 0) return bad('the call has no token counts: nothing to price');
  return {
    ok: true,
    row: {
      occurredAt: fields.occurredAt,
      provider: model.provider,
      model: model.id,
      request: fields.request,
      excerpt: excerptOf(textOf(fields.request)),
      inputTokens: fields.inputTokens,
      outputTokens: fields.outputTokens,
    },
  };
}

/** A user message holding `text`: how a row without a structured request reaches Layer 1. */
export function promptRequest(text: string, model: string, shape: ClientShape = 'openai'): CanonicalRequest {
  return { shape, model, messages: [{ role: 'user', content: [{ type: 'text', text }] }], stream: false };
}

const SHAPES = Object.keys(WIRES) as ClientShape[];

/** Which wire reads this response body (each shape's answer has its own mandatory parts). */
function readResponse(body: unknown): { shape: ClientShape; res: CanonicalResponse } | null {
  for (const shape of SHAPES) {
    const r = WIRES[shape].parseUpstreamResponse(body);
    if (r.ok) return { shape, res: r.value };
  }
  return null;
}

function fromLog(o: Record<string, unknown>): RowResult {
  const found = readResponse(o.response);
  if (!found) return bad('"response" is not a chat completion, message or generateContent response body');
  const hint = typeof o.model === 'string' ? o.model : found.res.model;
  const req = WIRES[found.shape].parseRequest(o.request, { model: hint });
  if (!req.ok) return bad(`"request" is not a valid request of the response's shape: ${req.message}`);
  const occurredAt = dateOf(o.timestamp ?? o.created_at ?? o.createdAt);
  if (occurredAt === undefined) return bad('"timestamp" is not an ISO 8601 date or epoch seconds');
  const modelId = found.res.model || req.value.model;
  return priced(modelId, {
    occurredAt,
    request: { ...req.value, stream: false },
    inputTokens: found.res.usage.inputTokens,
    outputTokens: found.res.usage.outputTokens,
  });
}

function fromBatchOutput(o: Record<string, unknown>): RowResult {
  const response = isObj(o.response) ? o.response : null;
  if (o.error || !response) return bad('the batch request failed (no response): nothing was spent to compare');
  const status = response.status_code;
  if (typeof status === 'number' && status !== 200) return bad(`the batch request failed with status ${status}: nothing was spent to compare`);
  const found = readResponse(response.body);
  if (!found) return bad('"response.body" is not a chat completion');
  const answer = found.res.content.map((p) => (p.type === 'text' ? p.text : p.arguments)).join('\n');
  if (!answer.trim()) return bad('the batch response has no text to classify');
  const body = response.body as Record<string, unknown>;
  const occurredAt = dateOf(body.created) ?? null;
  return priced(found.res.model, {
    occurredAt,
    request: promptRequest(answer, found.res.model),
    inputTokens: found.res.usage.inputTokens,
    outputTokens: found.res.usage.outputTokens,
  });
}

/** One NDJSON line (already known not to be blank). */
export function parseNdjsonLine(line: string): RowResult {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return bad('not valid JSON');
  }
  if (!isObj(o)) return bad('not a JSON object');
  if ('custom_id' in o) return fromBatchOutput(o);
  if ('request' in o && 'response' in o) return fromLog(o);
  return bad('expected {request, response} or an OpenAI Batch output line ({custom_id, response})');
}

/** Column positions of the CSV header, or the reason the header is unusable. */
export function csvHeader(fields: string[]): { ok: true; index: Record<(typeof CSV_COLUMNS)[number], number> } | { ok: false; error: string } {
  const names = fields.map((f) => f.trim().toLowerCase());
  const index = {} as Record<(typeof CSV_COLUMNS)[number], number>;
  const missing: string[] = [];
  for (const c of CSV_COLUMNS) {
    const i = names.indexOf(c);
    if (i < 0) missing.push(c);
    index[c] = i;
  }
  if (missing.length) return { ok: false, error: `the CSV header lacks ${missing.join(', ')}; the first line must name the columns ${CSV_COLUMNS.join(',')}` };
  return { ok: true, index };
}

/** One CSV record after the header. */
export function parseCsvRecord(fields: string[], index: Record<(typeof CSV_COLUMNS)[number], number>): RowResult {
  const get = (c: (typeof CSV_COLUMNS)[number]) => fields[index[c]];
  if (fields.length < CSV_COLUMNS.length) return bad(`expected ${CSV_COLUMNS.length} columns, found ${fields.length}`);
  const occurredAt = dateOf(get('timestamp'));
  if (occurredAt === undefined) return bad('timestamp is not an ISO 8601 date or epoch seconds');
  const provider = (get('provider') ?? '').trim().toLowerCase();
  const model = (get('model') ?? '').trim();
  if (!model) return bad('model is empty');
  const prompt = get('prompt') ?? '';
  if (!prompt.trim()) return bad('prompt is empty: nothing to classify');
  const inputTokens = tokenCount(get('input_tokens'));
  const outputTokens = tokenCount(get('output_tokens'));
  if (inputTokens === null) return bad('input_tokens is not a non-negative integer');
  if (outputTokens === null) return bad('output_tokens is not a non-negative integer');
  const r = priced(model, { occurredAt, request: promptRequest(prompt, model), inputTokens, outputTokens });
  // A provider column that names another vendor than the model's is a sign of a shifted column.
  if (r.ok && provider && isProviderKey(provider) && provider !== r.row.provider) {
    return bad(`provider "${provider}" does not serve model "${model}" (it is ${BRANDS[r.row.provider as keyof typeof BRANDS].name}'s)`);
  }
  return r;
}
