// Routing engine, Layers 1 and 2 (D12), the Layer 3 rule types they consume, and the breaker.
export * from './vocabulary.ts';
export * from './classify.ts';
export * from './routing-table.ts';
export * from './rules.ts';
export * from './layer1.ts';
export * from './layer2.ts';
export * from './circuit.ts';
export * from './bench.ts';
export { MODEL_CLASSES, nextRung, climb, classRank, isModelClass, type ModelClass } from '../model-class.ts';
