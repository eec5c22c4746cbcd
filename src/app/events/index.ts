// The events domain's public surface (docs/layout.md).
// What other domains, http/, jobs/, runtime/, connectors/ and scripts/ use from it; they import
// nothing behind this file (test/import-rule.test.ts). Files inside the domain import each other directly.
export { deliverySummary, getAnyDelivery, listAllDeliveries } from './admin-webhooks.repo.ts';
export { listAlertDeliveries, replayAnyDelivery, sendTestAlert } from './alert-test.ts';
export { SILENT_AFTER_MS, noteCallSource, recordHeartbeat } from './connector-activity.ts';
export { CHANNELS, EVENT_TYPES, emitEvent, enqueueEventInTx, kickOutbox, llmCallFrame } from './events.ts';
export type { Channel, EventType } from './events.ts';
export { checkWalletThresholds, emitRoutingEscalated, evaluateWalletThresholds, formatTokens, formatUsd, getNotificationSettings, sendAlertEmail, updateNotificationSettings } from './notifications.ts';
export { OutboxRelay } from './outbox.ts';
export { attemptDelivery, deliverDue, purgeExpired } from './webhook-delivery.ts';
export { createWebhook, deleteWebhook, getDelivery, getWebhook, listDeliveries, listWebhooks, rotateWebhookSecret, updateWebhook } from './webhooks.ts';
