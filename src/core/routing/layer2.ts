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

function verdictOf(state: CircuitState | undefined, now: number, config: CircuitConfig): 'ok' | 'trial' | 'open' {
  if (!state) return 'ok';
  if (!canAttempt(state, now, config)) return 'open';
  return circuitStatus(state, now, config) === 'half_open' ? 'trial' : 'ok';
}

/** The provider-wide circuit and the endpoint's own: open if either is, a trial if either is half-open. */
function circuitVerdict(health: EndpointHealth, candidate: EndpointCandidate, key: string, now: number, config: CircuitConfig): 'ok' | 'trial' | 'open' {
  const circuits = health.circuits;
  if (!circuits) return 'ok';
  const provider = verdictOf(circuits[candidate.provider], now, config);
  if (provider === 'open') return 'open';
  const endpoint = verdictOf(circuits[key], now, config);
  return endpoint === 'ok' ? provider : endpoint;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Per-candidate facts that never change between calls: the endpoint key and the blended price.
 * Layer 2 runs on every proxied call over the whole price book, and rebuilding the key string and
 * three bigint operations per candidate per call was most of its cost (docs/performance.md). The
 * memo is keyed by the candidate object and re-derived if the object's identity fields or prices
 * are ever changed in place. The last price ratio is kept too: the cheapest eligible price is the
 * same from call to call unless health or rules change the eligible set.
 */
interface CandidateFacts {
  provider: string;
  model: string;
  region: string;
  input: bigint;
  output: bigint;
  key: string;
  blended: bigint;
  relPriceBase: bigint;
  relPrice: number;
}
const candidateFacts = new WeakMap<EndpointCandidate, CandidateFacts>();

function factsOf(c: EndpointCandidate): CandidateFacts {
  const f = candidateFacts.get(c);
  if (f && f.provider === c.provider && f.model === c.model && f.region === c.region && f.input === c.inputMicrosPerMTok && f.output === c.outputMicrosPerMTok) {
    return f;
  }
  const fresh: CandidateFacts = {
    provider: c.provider,
    model: c.model,
    region: c.region,
    input: c.inputMicrosPerMTok,
    output: c.outputMicrosPerMTok,
    key: endpointKey(c),
    // +1 keeps a free model from dividing by zero.
    blended: INPUT_WEIGHT * c.inputMicrosPerMTok + c.outputMicrosPerMTok + 1n,
    relPriceBase: 0n,
    relPrice: 0,
  };
  candidateFacts.set(c, fresh);
  return fresh;
}

/** Price relative to the cheapest eligible one, to 1/1000 (truncated). Dimensionless: no money is computed from it. */
function relativePrice(f: CandidateFacts, minBlended: bigint): number {
  if (f.relPriceBase !== minBlended) {
    f.relPrice = Number((f.blended * 1_000n) / minBlended) / 1_000;
    f.relPriceBase = minBlended;
  }
  return f.relPrice;
}

interface Eligible {
  c: EndpointCandidate;
  f: CandidateFacts;
  trial: boolean;
}

function rank(list: Eligible[], health: EndpointHealth): RankedEndpoint[] {
  const ewma = health.latencyEwmaMs;
  const observed = new Array<number>(list.length);
  const known: number[] = [];
  let minBlended = list[0].f.blended;
  for (let i = 0; i < list.length; i++) {
    const v = ewma?.[list[i].f.key];
    observed[i] = typeof v === 'number' && v > 0 ? v : 0;
    if (observed[i] > 0) known.push(observed[i]);
    if (list[i].f.blended < minBlended) minBlended = list[i].f.blended;
  }
  // An endpoint without observations is assumed typical (the median), neither starved nor favoured.
  const prior = known.length > 0 ? median(known) : 1;
  let minLatency = Infinity;
  for (let i = 0; i < list.length; i++) {
    if (observed[i] === 0) observed[i] = prior;
    if (observed[i] < minLatency) minLatency = observed[i];
  }
  const ranked = new Array<RankedEndpoint>(list.length);
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    const score = observed[i] / minLatency + relativePrice(e.f, minBlended) + (e.trial ? HALF_OPEN_PENALTY : 0);
    // Spelled out rather than `{ ...e.c, key, trial, score }`: on Node 20 a spread followed by
    // extra properties takes a slow path (~3 µs per object, measured), paid here per candidate.
    const c = e.c;
    ranked[i] = {
      provider: c.provider,
      model: c.model,
      region: c.region,
      modelClass: c.modelClass,
      inputMicrosPerMTok: c.inputMicrosPerMTok,
      outputMicrosPerMTok: c.outputMicrosPerMTok,
      capabilities: c.capabilities,
      key: e.f.key,
      trial: e.trial,
      score,
    };
  }
  ranked.sort(byScoreThenKey);
  return ranked;
}

const byScoreThenKey = (a: RankedEndpoint, b: RankedEndpoint): number => a.score - b.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function hasAll(capabilities: readonly Capability[], required: readonly Capability[]): boolean {
  for (const cap of required) if (!capabilities.includes(cap)) return false;
  return true;
}

export function chooseEndpoints(input: ChooseEndpointsInput): EndpointChoice {
  const config = input.circuitConfig ?? DEFAULT_CIRCUIT_CONFIG;
  const rules = input.rules ?? [];
  const skipped: EndpointChoice['skipped'] = [];
  const appliedRules: string[] = [];
  const required = input.requiredCapabilities ?? [];
  const asked = classRank(input.modelClass);

  for (let r = asked; r < MODEL_CLASSES.length; r++) {
    const modelClass = MODEL_CLASSES[r];
    // The asked class was already checked by Layer 1; classes reached by fallback are checked here.
    if (r > asked) {
      const classRule = activeClassSuppression(rules, input.taskFamily, modelClass, input.now);
      if (classRule && r < MODEL_CLASSES.length - 1) {
        appliedRules.push(classRule.id);
        for (const c of input.candidates) {
          if (c.modelClass === modelClass) skipped.push({ endpoint: factsOf(c).key, modelClass, reason: 'class_suppressed' });
        }
        continue;
      }
    }

    const eligible: Eligible[] = [];
    for (const c of input.candidates) {
      if (c.modelClass !== modelClass) continue;
      const f = factsOf(c);
      let reason: SkipReason | null = null;
      if (input.allowedProviders && !input.allowedProviders.includes(c.provider)) reason = 'provider_not_allowed';
      else if (input.residency && !matchesResidency(c.region, input.residency)) reason = 'residency';
      else if (!hasAll(c.capabilities, required)) reason = 'missing_capability';
      else if (rules.length > 0) {
        const suppression = activeEndpointSuppression(rules, input.taskFamily, f.key, input.now);
        if (suppression) {
          reason = 'endpoint_suppressed';
          if (!appliedRules.includes(suppression.id)) appliedRules.push(suppression.id);
        }
      }
      if (reason === null) {
        const verdict = circuitVerdict(input.health, c, f.key, input.now, config);
        if (verdict === 'open') reason = 'circuit_open';
        else eligible.push({ c, f, trial: verdict === 'trial' });
      }
      if (reason !== null) skipped.push({ endpoint: f.key, modelClass, reason });
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
