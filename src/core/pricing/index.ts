// Pricing: the versioned price book, exact cost and savings math (D7), reservation estimates (D8),
// the brand-registry consistency check and the public catalogue.
export * from './price-book.ts';
export * from './cost.ts';
export * from './estimate.ts';
export * from './registry-check.ts';
export * from './catalogue.ts';
