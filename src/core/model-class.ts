// The model-class quality ladder (D12). Shared by pricing (each model belongs to one class, each
// provider names a reference model per class for benchmark pricing, D7) and routing (Layer 1 picks
// a class, escalation climbs one rung at a time, D5). It lives at the core root because both of
// those folders depend on it and neither should depend on the other for it.

export const MODEL_CLASSES = ['economy', 'standard', 'premium', 'frontier'] as const;
export type ModelClass = (typeof MODEL_CLASSES)[number];

export const isModelClass = (v: unknown): v is ModelClass =>
  typeof v === 'string' && (MODEL_CLASSES as readonly string[]).includes(v);

/** Position on the ladder, 0 = economy. */
export const classRank = (c: ModelClass): number => MODEL_CLASSES.indexOf(c);

/** The next rung up, or null at the top: callers must handle "nowhere left to climb". */
export function nextRung(c: ModelClass): ModelClass | null {
  const i = classRank(c);
  return i < MODEL_CLASSES.length - 1 ? MODEL_CLASSES[i + 1] : null;
}

/** The class `rungs` steps above `c`, stopping at the top of the ladder. */
export function climb(c: ModelClass, rungs: number): ModelClass {
  const i = Math.min(MODEL_CLASSES.length - 1, Math.max(0, classRank(c) + rungs));
  return MODEL_CLASSES[i];
}
