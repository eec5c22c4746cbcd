// The locked customer vocabulary (spec §1) and the insights-engine version that every chart
// footer shows (spec §9, D13). Bump the version with every change of the locked wording or of the
// savings methodology (core/pricing SAVINGS_METHODOLOGY_VERSION). Pure: the web app imports it.

export const VOCABULARY = {
  tokensSaved: 'Tokens saved',
  percentSaved: '% saved',
  benchmarkProvider: 'Benchmark provider',
  serviceBurn: 'Service burn',
} as const;

/** "<Provider>-equivalent burn", or "Benchmark-equivalent burn" with no provider chosen. */
export const equivalentBurnLabel = (brand: string | null) => `${brand ?? 'Benchmark'}-equivalent burn`;

export const INSIGHTS_ENGINE_VERSION = '2026.11.1';
