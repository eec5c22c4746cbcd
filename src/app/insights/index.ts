// The insights domain's public surface (docs/layout.md).
// What other domains, http/, jobs/, runtime/, connectors/ and scripts/ use from it; they import
// nothing behind this file (test/import-rule.test.ts). Files inside the domain import each other directly.
export { activity } from './activity.ts';
export { auditInsights } from './audit-insights.ts';
export { digestPreview, runDigests } from './digests.ts';
export { benchmarkOf, burnTotals, overview, savingsSeries, usageRollups } from './insights-views.ts';
export type { SavingsWindow } from './insights-views.ts';
export { SUMMARY_PERIODS, getSummary } from './insights.ts';
