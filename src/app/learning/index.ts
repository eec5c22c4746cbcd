// The learning domain's public surface (docs/layout.md).
// What other domains, http/, jobs/, runtime/, connectors/ and scripts/ use from it; they import
// nothing behind this file (test/import-rule.test.ts). Files inside the domain import each other directly.
export { batches, cases, costSummary, gateResults, getProposal, listProposals, replay } from './admin.repo.ts';
export { ensureBudgetsForWindow, listBudgetChanges, listBudgets, setBudget } from './budget.repo.ts';
export { DETECTORS } from './detectors.ts';
export { runLearningTick } from './pipeline.ts';
export { learningRoleUsable } from './role.ts';
