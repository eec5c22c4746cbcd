// A learning-plane proposal's would-be routing rule (D15) and Layer 1 with it applied, in memory
// only. Nothing here is read by the request path: replay calls it for synthetic cases, and the
// live routing table (routing-table.ts) is never modified. Pure and deterministic, like Layer 1.
import type { CanonicalRequest } from '../canonical/types.ts';
import type { ModelClass } from '../model-class.ts';
import { classify } from './classify.ts';
import { ROUTING_TABLE, FLOOR_BANDS, type FloorBand } from './routing-table.ts';
import type { Complexity, TaskFamily } from './vocabulary.ts';

/** One cell of the routing table moved to another class: family × complexity × floor band → class. */
export interface ClassOverride {
  kind: 'class';
  taskFamily: TaskFamily;
  complexity: Complexity;
  floorBand: FloorBand;
  fromClass: ModelClass;
  toClass: ModelClass;
}

/** Layer 2 preference: for one class, prefer other endpoints over this one. */
export interface EndpointOverride {
  kind: 'endpoint';
  modelClass: ModelClass;
  avoid: { providerKey: string; modelId: string; region: string };
}

export type RoutingOverride = ClassOverride | EndpointOverride;

export interface OverrideDecision {
  taskFamily: TaskFamily;
  complexity: Complexity;
  floorBand: FloorBand;
  modelClass: ModelClass;
  /** The override changed this decision (it matched the request's cell). */
  overridden: boolean;
  /** For endpoint overrides that matched: the endpoint Layer 2 would skip. */
  avoidEndpoint?: EndpointOverride['avoid'];
}

export const tableClassForBand = (f: TaskFamily, c: Complexity, band: FloorBand): ModelClass =>
  ROUTING_TABLE[f][c][FLOOR_BANDS.indexOf(band)];

/** Layer 1's table decision for `req` in `band`, with `override` applied when the request falls in its cell. */
export function decideWithOverride(req: CanonicalRequest, band: FloorBand, override: RoutingOverride): OverrideDecision {
  const { taskFamily, complexity } = classify(req);
  const table = tableClassForBand(taskFamily, complexity, band);
  if (override.kind === 'class') {
    const hit = override.taskFamily === taskFamily && override.complexity === complexity && override.floorBand === band;
    return { taskFamily, complexity, floorBand: band, modelClass: hit ? override.toClass : table, overridden: hit };
  }
  const hit = override.modelClass === table;
  return hit
    ? { taskFamily, complexity, floorBand: band, modelClass: table, overridden: true, avoidEndpoint: override.avoid }
    : { taskFamily, complexity, floorBand: band, modelClass: table, overridden: false };
}
