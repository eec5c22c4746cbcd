// Injectable misbehaviour of the simulated upstream, for tests of timeouts, failover, retries,
// pass-through settlement and quality escalation. A rule matches calls by provider prefix, wire,
// model, streaming and a prompt substring; the first matching rule applies, `times` calls long.
import { BAD_ANSWERS, type BadAnswer } from './answer.ts';

export const SIM_PROVIDERS = ['openai', 'mistral', 'deepseek', 'anthropic', 'google'] as const;
export type SimProvider = (typeof SIM_PROVIDERS)[number];
export type SimWire = 'openai' | 'anthropic' | 'gemini';

export interface FaultRule {
  /** Which base URL the call came through (`/mistral/...`); unprefixed routes count as the wire's vendor. */
  provider?: SimProvider;
  wire?: SimWire;
  /** Exact model the request names. */
  model?: string;
  /** Substring of the prompt (system and every text part). */
  promptIncludes?: string;
  stream?: boolean;
  /** How many matching calls this rule applies to; unlimited when absent. */
  times?: number;

  /** Answer with this HTTP status and the wire's native error body. */
  status?: number;
  /** Code carried in the error body (default derived from the status). */
  errorCode?: string;
  errorMessage?: string;
  /** `Retry-After` seconds sent with an error status. */
  retryAfterSeconds?: number;
  /** Wait before sending headers. */
  delayMs?: number;
  /** Send headers, then wait before the first body byte. */
  firstByteDelayMs?: number;
  /** Wait between stream events. */
  chunkDelayMs?: number;
  /** Never answer (the socket stays open until the client gives up or the sim closes). */
  hang?: boolean;
  /** Send this many stream writes (non-streamed: part of the body), then destroy the socket. */
  breakStreamAfter?: number;
  /** A well-formed but bad answer, for quality-escalation tests. */
  answer?: BadAnswer;
}

export interface ActiveFault extends FaultRule {
  id: string;
  /** Calls matched so far. */
  hits: number;
}

export interface CallFacts {
  provider: SimProvider;
  wire: SimWire;
  model: string;
  stream: boolean;
  prompt: string;
}

export interface FaultController {
  /** Add rules (later rules are consulted after earlier ones); returns their ids. */
  add(...rules: FaultRule[]): string[];
  remove(id: string): boolean;
  clear(): void;
  list(): ActiveFault[];
  /** The rule for this call, counting it against `times`. */
  take(call: CallFacts): ActiveFault | undefined;
}

export function createFaultController(): FaultController {
  let rules: ActiveFault[] = [];
  let seq = 0;
  const matches = (r: FaultRule, c: CallFacts): boolean =>
    (r.provider === undefined || r.provider === c.provider) &&
    (r.wire === undefined || r.wire === c.wire) &&
    (r.model === undefined || r.model === c.model) &&
    (r.stream === undefined || r.stream === c.stream) &&
    (r.promptIncludes === undefined || c.prompt.includes(r.promptIncludes));
  return {
    add(...added) {
      return added.map((r) => {
        const id = `fault_${++seq}`;
        rules.push({ ...r, id, hits: 0 });
        return id;
      });
    },
    remove(id) {
      const n = rules.length;
      rules = rules.filter((r) => r.id !== id);
      return rules.length !== n;
    },
    clear() {
      rules = [];
    },
    list: () => rules.map((r) => ({ ...r })),
    take(call) {
      const r = rules.find((x) => matches(x, call));
      if (!r) return undefined;
      r.hits++;
      if (r.times !== undefined && r.hits >= r.times) rules = rules.filter((x) => x !== r);
      return r;
    },
  };
}

const NUM_FIELDS = ['times', 'status', 'retryAfterSeconds', 'delayMs', 'firstByteDelayMs', 'chunkDelayMs', 'breakStreamAfter'] as const;
const STR_FIELDS = ['model', 'promptIncludes', 'errorCode', 'errorMessage'] as const;

/** Validate a rule posted to the control route; returns an error message or the rule. */
export function readFaultRule(v: unknown, at = 'rule'): FaultRule | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${at} must be an object`;
  const o = v as Record<string, unknown>;
  const known = new Set<string>(['provider', 'wire', 'stream', 'hang', 'answer', ...NUM_FIELDS, ...STR_FIELDS]);
  for (const k of Object.keys(o)) if (!known.has(k)) return `${at}.${k} is not a fault rule field`;
  for (const k of NUM_FIELDS) {
    if (o[k] !== undefined && (typeof o[k] !== 'number' || !Number.isInteger(o[k]) || (o[k] as number) < 0)) {
      return `${at}.${k} must be a non-negative integer`;
    }
  }
  for (const k of STR_FIELDS) if (o[k] !== undefined && typeof o[k] !== 'string') return `${at}.${k} must be a string`;
  for (const k of ['stream', 'hang'] as const) if (o[k] !== undefined && typeof o[k] !== 'boolean') return `${at}.${k} must be a boolean`;
  if (o.provider !== undefined && !(SIM_PROVIDERS as readonly unknown[]).includes(o.provider)) {
    return `${at}.provider must be one of ${SIM_PROVIDERS.join(', ')}`;
  }
  if (o.wire !== undefined && !['openai', 'anthropic', 'gemini'].includes(o.wire as string)) {
    return `${at}.wire must be one of openai, anthropic, gemini`;
  }
  if (o.answer !== undefined && !(BAD_ANSWERS as readonly unknown[]).includes(o.answer)) {
    return `${at}.answer must be one of ${BAD_ANSWERS.join(', ')}`;
  }
  if (o.status !== undefined && ((o.status as number) < 400 || (o.status as number) > 599)) return `${at}.status must be 400..599`;
  return o as FaultRule;
}
