// The shared domain's public surface (docs/layout.md).
// What other domains, http/, jobs/, runtime/, connectors/ and scripts/ use from it; they import
// nothing behind this file (test/import-rule.test.ts). Files inside the domain import each other directly.
export type { FollowUpResult, FollowUpWriter, SettlementFollowUp } from './follow-ups.ts';
export { escapeHtml } from './html.ts';
export type { JobQueue } from './jobs.ts';
export { MAX_BIGINT, decodeCursor, encodeCursor, pageList, toPage } from './pagination.ts';
export type { Page, PageQuery } from './pagination.ts';
export { loadSecrets, webhookSecretKey } from './secrets.ts';
export { mapPerServices } from './services.ts';
export { LiveTraffic, SharedTraffic, liveTraffic, markServing, servesCalls, STATS_LAG_MS } from './traffic.ts';
export type { TrafficGauge } from './traffic.ts';
export type { Logger, Services } from './services.ts';
