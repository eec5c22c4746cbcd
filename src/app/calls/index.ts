// The calls domain's public surface (docs/layout.md).
// What other domains, http/, jobs/, runtime/, connectors/ and scripts/ use from it; they import
// nothing behind this file (test/import-rule.test.ts). Files inside the domain import each other directly.
export type { CallRequest, Surface } from './call-request.ts';
export { buildCallDeps } from './deps.ts';
export type { CallDeps } from './deps.ts';
export { writeFollowUps } from './follow-ups.ts';
export { runCall } from './pipeline.ts';
export { RulesCache, deriveAndStore } from './quality/rules.ts';
export { scorePending } from './quality/scoring.ts';
export { deleteExpiredResponses, deleteStoredResponse, findStoredItems, findStoredResponse, storeResponse } from './stored-responses.repo.ts';
export type { StreamSink } from './stream.ts';
