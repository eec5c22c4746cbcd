// The money domain's public surface (docs/layout.md).
// What other domains, http/, jobs/, runtime/, connectors/ and scripts/ use from it; they import
// nothing behind this file (test/import-rule.test.ts). Files inside the domain import each other directly.
export { Admission } from './admission.ts';
export { getBaseline, setBaseline } from './baseline.ts';
export { callSumsBy, liveAttemptCounts, pathSums } from './call-rollups.repo.ts';
export { checkpointMovedLedgers, listCheckpoints, takeCheckpoint, verifiableExport } from './checkpoints.ts';
export { invoicePdf, listInvoices } from './invoices.ts';
export { ledgerSums, rollUpLedger } from './ledger-rollups.repo.ts';
export { LEDGER_EVENT_TYPES, listLedger, verifyLedger } from './ledger-view.ts';
export type { LedgerFilters, LedgerRow } from './ledger-view.ts';
export { appendLedgerEntry } from './ledger.ts';
export type { LedgerEventType } from './ledger.ts';
export { adjustWallet, refundSandboxTopup } from './refunds.ts';
export { PROMPT_EXCERPT_CHARS } from './settlement-plan.ts';
export type { RoutingRecord, SettledCall, SettlementPlan } from './settlement-plan.ts';
export { Settler, priceSettlement } from './settlement.ts';
export { SWEEP_QUEUE, sweepIntervalMs, sweepReservations } from './sweeper.ts';
export { AUTO_TOPUP_QUEUE, confirmSandboxCheckout, getSandboxCheckout, handleProcessorEvent, runAutoTopup, startTopup } from './topups.ts';
export type { AutoTopupJob } from './topups.ts';
export { clearAutoTopup, getWalletView, setAutoTopup } from './wallet-view.ts';
export type { WalletView } from './wallet-view.ts';
export { monthSpentMicros, recordQaScores, walletBalance } from './wallet.repo.ts';
export { evictCallContexts, invalidateCallContext, loadCallContext, noteProjectStage, recordFailedCall, reserve, settleCall } from './wallet.ts';
export type { CallContext, Reservation } from './wallet.ts';
