// Layer 2 (D12): among the endpoints serving the chosen model class, an ordered failover list.
// Filters first (open circuits, data residency, allowed providers, required capabilities, Layer 3
// suppressions), then ranks by observed latency and price. If a class has nothing left, the next
// class up is tried: a dearer answer beats no answer, and the ladder only goes up (D5).
// The caller walks the list, failing over on 5xx, timeout or connection error before any byte has
// reached the client.
import { MODEL_CLASSES, classRank, type ModelClass } from '../model-class.ts';
import { PRICE_BOOK, type Capability, type PriceBook } from '../pricing/price-book.ts';
import { DEFAULT_CIRCUIT_CONFIG, canAttempt, circuitStatus, type CircuitConfig, type CircuitState } from './circuit.ts';
import {
  activeClassSuppression,
  activeEndpointSuppression,
  endpointKey,
  type EndpointRef,
  type Layer3Rule,
} from './rules.ts';
import type { TaskFamily } from './vocabulary.ts';

export interface EndpointCandidate extends EndpointRef {
  modelClass: ModelClass;
  inputMicrosPerMTok: bigint;
  outputMicrosPerMTok: bigint;
  capabilities: readonly Capability[];
}

/** One candidate per (model, region) of the price book, in book order. */
export function endpointsFromPriceBook(book: PriceBook = PRICE_BOOK): EndpointCandidate[] {
  const out: EndpointCandidate[] = [];
  for (const key of Object.keys(book.providers)) {
    for (const m of book.providers[key].models) {
      for (const region of m.regions) {
        out.push({
          provider: m.provider,
          model: m.id,
          region,
          modelClass: m.modelClass,
          inputMicrosPerMTok: m.inputMicrosPerMTok,
          outputMicrosPerMTok: m.outputMicrosPerMTok,
          capabilities: m.capabilities,
        });
      }
    }
  }
  return out;
}

export interface EndpointHealth {
  /** Circuit states keyed by provider key (whole provider) or endpoint key (one endpoint). */
  circuits?: Readonly<Record<string, CircuitState>>;
  /** Exponentially weighted moving average of observed latency, keyed by endpoint key. */
  latencyEwmaMs?: Readonly<Record<string, number>>;
}

export interface ChooseEndpointsInput {
  modelClass: ModelClass;
  taskFamily: TaskFamily;
  candidates: readonly EndpointCandidate[];
  health: EndpointHealth;
  /** Region prefix such as 'eu' or 'us'; null or absent means anywhere. */
  residency?: string | null;
  allowedProviders?: readonly string[] | null;
  /** Capabilities the request needs (tools, json, vision, streaming). */
  requiredCapabilities?: readonly Capability[];
  rules?: readonly Layer3Rule[];
  now: number;
  circuitConfig?: CircuitConfig;
}

export type SkipReason =
  | 'circuit_open'
  | 'residency'
  | 'provider_not_allowed'
  | 'missing_capability'
  | 'endpoint_suppressed'
  | 'class_suppressed';

export interface RankedEndpoint extends EndpointCandidate {
  key: string;
  /** The circuit is half-open: this request would be its trial. */
  trial: boolean;
  /** Lower is better; relative latency + relative price (+ a penalty for trials). */
  score: number;
}

export interface EndpointChoice {
  /** Ordered failover list; empty when nothing anywhere on the ladder qualifies. */
  endpoints: RankedEndpoint[];
  /** The class the list serves (may be above the asked class after fallback), or null. */
  modelClass: ModelClass | null;
  skipped: Array<{ endpoint: string; modelClass: ModelClass; reason: SkipReason }>;
  appliedRules: string[];
}

/** Score weight of a half-open endpoint: it stays in the list (so it gets its trial) but rarely first. */
export const HALF_OPEN_PENALTY = 1;
/** Blended price weighs input three times output, the usual shape of chat traffic. */
const INPUT_WEIGHT = 3n;

/** residency 'eu' matches 'eu' and 'eu-west', never 'europe-x' or 'us-eu'. */
export const matchesResidency = (region: string, prefix: string): boolean =>
  region === prefix || region.startsWith(`${prefix}-`);

function circuitVerdict(
  health: EndpointHealth,
  candidate: EndpointCandidate,
  key: string,
  now: number,
  config: CircuitConfig,
): 'ok' | 'trial' | 'open' {
  let verdict: 'ok' | 'trial' | 'open' = 'ok';
  for (const state of [health.circuits?.[candidate.provider], health.circuits?.[key]]) {
    if (!state) continue;
    if (!canAttempt(state, now, config)) return 'open';
    if (circuitStatus(state, now, config) === 'half_open') verdict = 'trial';
  }
  return verdict;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function rank(list: Array<{ c: EndpointCandidate; key: string; trial: boolean }>, health: EndpointHealth): RankedEndpoint[] {
  const known = list.map((e) => health.latencyEwmaMs?.[e.key]).filter((v): v is number => typeof v === 'number' && v > 0);
  // An endpoint without observations is assumed typical (the median), neither starved nor favoured.
  const prior = known.length > 0 ? median(known) : 1;
  const latency = list.map((e) => {
    const v = health.latencyEwmaMs?.[e.key];
    return typeof v === 'number' && v > 0 ? v : prior;
  });
  const minLatency = Math.min(...latency);
  // +1 keeps a free model from dividing by zero. The ratio is dimensionless and only orders the
  // list; no money is computed from it.
  const blended = list.map((e) => INPUT_WEIGHT * e.c.inputMicrosPerMTok + e.c.outputMicrosPerMTok + 1n);
  const minBlended = blended.reduce((a, b) => (b < a ? b : a));
  const ranked = list.map((e, i) => {
    const relPrice = Number((blended[i] * 1_000n) / minBlended) / 1_000;
    const relLatency = latency[i] / minLatency;
    const score = relLatency + relPrice + (e.trial ? HALF_OPEN_PENALTY : 0);
    return { ...e.c, key: e.key, trial: e.trial, score };
  });
  ranked.sort((a, b) => a.score - b.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return ranked;
}

export function chooseEndpoints(input: ChooseEndpointsInput): EndpointChoice {
  const config = input.circuitConfig ?? DEFAULT_CIRCUIT_CONFIG;
  const rules = input.rules ?? [];
  const skipped: EndpointChoice['skipped'] = [];
  const appliedRules: string[] = [];
  const required = input.requiredCapabilities ?? [];

  for (let r = classRank(input.modelClass); r < MODEL_CLASSES.length; r++) {
    const modelClass = MODEL_CLASSES[r];
    // The asked class was already checked by Layer 1; classes reached by fallback are checked here.
    if (r > classRank(input.modelClass)) {
      const classRule = activeClassSuppression(rules, input.taskFamily, modelClass, input.now);
      if (classRule && r < MODEL_CLASSES.length - 1) {
        appliedRules.push(classRule.id);
        for (const c of input.candidates) {
          if (c.modelClass === modelClass) skipped.push({ endpoint: endpointKey(c), modelClass, reason: 'class_suppressed' });
        }
        continue;
      }
    }

    const eligible: Array<{ c: EndpointCandidate; key: string; trial: boolean }> = [];
    for (const c of input.candidates) {
      if (c.modelClass !== modelClass) continue;
      const key = endpointKey(c);
      const skip = (reason: SkipReason) => skipped.push({ endpoint: key, modelClass, reason });
      if (input.allowedProviders && !input.allowedProviders.includes(c.provider)) {
        skip('provider_not_allowed');
        continue;
      }
      if (input.residency && !matchesResidency(c.region, input.residency)) {
        skip('residency');
        continue;
      }
      if (required.some((cap) => !c.capabilities.includes(cap))) {
        skip('missing_capability');
        continue;
      }
      const suppression = activeEndpointSuppression(rules, input.taskFamily, key, input.now);
      if (suppression) {
        skip('endpoint_suppressed');
        if (!appliedRules.includes(suppression.id)) appliedRules.push(suppression.id);
        continue;
      }
      const verdict = circuitVerdict(input.health, c, key, input.now, config);
      if (verdict === 'open') {
        skip('circuit_open');
        continue;
      }
      eligible.push({ c, key, trial: verdict === 'trial' });
    }
    if (eligible.length > 0) return { endpoints: rank(eligible, input.health), modelClass, skipped, appliedRules };
  }
  return { endpoints: [], modelClass: null, skipped, appliedRules };
}

/** The capabilities an endpoint must have to serve this request at all. */
export function requiredCapabilities(req: {
  tools?: readonly unknown[];
  responseFormat?: { type: string };
  stream: boolean;
  messages: ReadonlyArray<{ content: ReadonlyArray<{ type: string }> }>;
}): Capability[] {
  const caps: Capability[] = [];
  if (req.tools && req.tools.length > 0) caps.push('tools');
  if (req.responseFormat && req.responseFormat.type !== 'text') caps.push('json');
  if (req.messages.some((m) => m.content.some((p) => p.type === 'image'))) caps.push('vision');
  if (req.stream) caps.push('streaming');
  return caps;
}
