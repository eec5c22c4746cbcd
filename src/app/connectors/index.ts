// The connectors domain's public surface (docs/layout.md).
// What other domains, http/, jobs/, runtime/, connectors/ and scripts/ use from it; they import
// nothing behind this file (test/import-rule.test.ts). Files inside the domain import each other directly.
export { formatOf, receiveImport } from './advisory-import.ts';
export type { Uploader } from './advisory-import.ts';
export { processAdvisoryImport } from './advisory-process.ts';
export { allRows, findImport, importReport, listImportSummaries, summaryOf } from './advisory-report.ts';
export type { RowView } from './advisory-report.ts';
export { getImport, listImports } from './advisory.repo.ts';
export type { ImportRecord } from './advisory.repo.ts';
export { connectorActivity, connectorSavings, connectorToday, connectorWallet, keyIdentity } from './connector-views.ts';
export { copyPaste } from './copy-paste.ts';
export { TOOLS, TOOL_IDS, connectorSeen, listIntegrations, removeIntegration, testConnection } from './integrations.ts';
export { WIZARD_TOOLS, wizardSteps } from './setup-wizard.ts';
export { toolCatalogue } from './tools-catalogue.ts';
export type { McpToolInfo } from './tools-catalogue.ts';
