// The versioned Layer 1 routing table (D12): task family × complexity × quality-floor band →
// model class. A change of any cell is a new version, because the version is recorded with every
// Layer 1 decision on the call-log row and must explain that row later.
//
// Why bands, not the raw floor: the floor is a project setting on a continuous 0..1 scale (D5);
// three bands keep the table small enough to review by eye, and a stricter project moves one
// column right, which is the cheap way to buy quality before Layer 3 has evidence.
import type { ModelClass } from '../model-class.ts';
import type { Complexity, TaskFamily } from './vocabulary.ts';

export const ROUTING_TABLE_VERSION = 'rt-2026-11-01';

export const FLOOR_BANDS = ['lenient', 'default', 'strict'] as const;
export type FloorBand = (typeof FLOOR_BANDS)[number];

/** Lower bounds (inclusive) of the default and strict bands; DEFAULT_QUALITY_FLOOR 0.6 is "default". */
export const DEFAULT_BAND_FROM = 0.5;
export const STRICT_BAND_FROM = 0.75;

/** Throws on a floor outside 0..1: projects validate it at the edge, so this is a bug guard. */
export function floorBand(qualityFloor: number): FloorBand {
  if (!Number.isFinite(qualityFloor) || qualityFloor < 0 || qualityFloor > 1) {
    throw new RangeError(`quality floor must be within 0..1, got ${qualityFloor}`);
  }
  if (qualityFloor >= STRICT_BAND_FROM) return 'strict';
  if (qualityFloor >= DEFAULT_BAND_FROM) return 'default';
  return 'lenient';
}

/** [lenient, default, strict] per family and complexity. */
type Row = readonly [ModelClass, ModelClass, ModelClass];

export const ROUTING_TABLE: Readonly<Record<TaskFamily, Readonly<Record<Complexity, Row>>>> = {
  coding: {
    low: ['economy', 'standard', 'premium'],
    medium: ['standard', 'standard', 'premium'],
    high: ['premium', 'premium', 'frontier'],
  },
  writing: {
    low: ['economy', 'economy', 'standard'],
    medium: ['economy', 'standard', 'premium'],
    high: ['standard', 'premium', 'premium'],
  },
  research: {
    low: ['economy', 'standard', 'standard'],
    medium: ['standard', 'standard', 'premium'],
    high: ['premium', 'premium', 'frontier'],
  },
  'data-analysis': {
    low: ['economy', 'standard', 'standard'],
    medium: ['standard', 'standard', 'premium'],
    high: ['premium', 'premium', 'frontier'],
  },
  math: {
    low: ['economy', 'standard', 'premium'],
    medium: ['standard', 'premium', 'premium'],
    high: ['premium', 'frontier', 'frontier'],
  },
  summarization: {
    low: ['economy', 'economy', 'standard'],
    medium: ['economy', 'economy', 'standard'],
    high: ['standard', 'standard', 'premium'],
  },
  translation: {
    low: ['economy', 'economy', 'standard'],
    medium: ['economy', 'standard', 'standard'],
    high: ['standard', 'standard', 'premium'],
  },
  extraction: {
    low: ['economy', 'economy', 'standard'],
    medium: ['economy', 'standard', 'standard'],
    high: ['standard', 'standard', 'premium'],
  },
  conversation: {
    low: ['economy', 'economy', 'economy'],
    medium: ['economy', 'economy', 'standard'],
    high: ['standard', 'standard', 'premium'],
  },
};

export function tableClass(family: TaskFamily, complexity: Complexity, qualityFloor: number): ModelClass {
  return ROUTING_TABLE[family][complexity][FLOOR_BANDS.indexOf(floorBand(qualityFloor))];
}
