// The projects domain's public surface (docs/layout.md).
// What other domains, http/, jobs/, runtime/, connectors/ and scripts/ use from it; they import
// nothing behind this file (test/import-rule.test.ts). Files inside the domain import each other directly.
export { createProject, deleteProject, getDefaultProjectId, getProject, listProjects, updateProject } from './projects.ts';
export { advanceStage, budgetExhausted, connectorConnected, connectorDisconnected, emitWalletTopup, walletExhausted, walletFunded } from './stages.ts';
