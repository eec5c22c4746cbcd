// The developer zone's tool catalogue (D13, GET /api/tools): every connector and CLI tool with its
// tier, whether this deployment ships it, its command, setup snippets carrying this deployment's
// URL (the key is a placeholder: keys are created under Clients, shown once), and the MCP
// server's own tools as the server itself lists them (the caller passes them in).
import { mcpClientConfigs, wizardSteps, type WizardTool } from './setup-wizard.ts';

export const KEY_PLACEHOLDER = '<your service key>';

export interface McpToolInfo {
  name: string;
  title: string | null;
  description: string;
  inputs: Array<{ name: string; type: string; required: boolean; description: string | null }>;
}

const sdkSnippets = (tool: WizardTool, baseUrl: string) =>
  wizardSteps(tool, baseUrl, KEY_PLACEHOLDER, '')
    .flatMap((s) => s.snippets)
    .map((x) => ({ client: x.client, language: x.language, content: x.content }));

export function toolCatalogue(baseUrl: string, opts: { mcpTools: McpToolInfo[]; extensionBuilt: boolean; advisoryBuilt: boolean }) {
  const none: McpToolInfo[] = [];
  return [
    { id: 'openai-sdk', name: 'OpenAI SDK (chat completions)', kind: 'connector' as const, tier: 1, available: true, command: null, mcpTools: none,
      description: 'Drop-in: point the official OpenAI SDK at Switchboard. Only the base URL and the key change.', snippets: sdkSnippets('openai-sdk', baseUrl) },
    { id: 'anthropic-sdk', name: 'Anthropic SDK (messages)', kind: 'connector' as const, tier: 1, available: true, command: null, mcpTools: none,
      description: 'Drop-in: point the official Anthropic SDK at Switchboard. Only the base URL and the key change.', snippets: sdkSnippets('anthropic-sdk', baseUrl) },
    { id: 'gemini-sdk', name: 'Google Gen AI SDK (generate content)', kind: 'connector' as const, tier: 1, available: true, command: null, mcpTools: none,
      description: 'Drop-in: point the official Google Gen AI SDK at Switchboard. Only the base URL and the key change.', snippets: sdkSnippets('gemini-sdk', baseUrl) },
    { id: 'mcp', name: 'MCP server', kind: 'connector' as const, tier: 2, available: true, command: 'switchboard mcp', mcpTools: opts.mcpTools,
      description: 'A local stdio MCP server for MCP-aware clients (Claude Desktop, Cursor, VS Code): ask through Switchboard, read the wallet, savings and recent activity.',
      snippets: mcpClientConfigs(baseUrl, KEY_PLACEHOLDER).map((x) => ({ client: x.client, language: x.language, content: x.content })) },
    { id: 'browser-extension', name: 'Browser extension', kind: 'connector' as const, tier: 3, available: opts.extensionBuilt, command: opts.extensionBuilt ? 'npm run build:extension' : null, mcpTools: none,
      description: opts.extensionBuilt
        ? "Re-routes a web page's calls to model vendors through Switchboard and splices the answers back."
        : 'Not built in this deployment yet: it will re-route a web page’s calls to model vendors through Switchboard.',
      snippets: [] },
    { id: 'desktop-bridge', name: 'Desktop bridge', kind: 'connector' as const, tier: 4, available: true, command: 'switchboard bridge', mcpTools: none,
      description: 'A desktop companion: signs in by device approval at /device and turns wallet, runway, budget and escalation alerts into desktop notifications.',
      snippets: [{ client: 'shell', language: 'shell', content: `SWITCHBOARD_URL=${JSON.stringify(baseUrl)} switchboard bridge` }] },
    { id: 'copy-paste', name: 'Copy-paste', kind: 'connector' as const, tier: 5, available: true, command: null, mcpTools: none,
      description: `For tools nothing can plug into: paste a prompt at ${baseUrl}/copy-paste and paste the answer back. Routed, billed and ledgered like any call.`,
      snippets: [] },
    { id: 'advisory', name: 'Advisory import', kind: 'connector' as const, tier: 6, available: opts.advisoryBuilt, command: opts.advisoryBuilt ? 'switchboard advisory <file>' : null, mcpTools: none,
      description: opts.advisoryBuilt
        ? 'Read-only: upload historical calls and see what Switchboard would have routed and saved. No live call, no wallet movement.'
        : 'Not built in this deployment yet: it will report what Switchboard would have saved on historical calls.',
      snippets: [] },
    { id: 'cli', name: 'switchboard command', kind: 'cli' as const, tier: null, available: true, command: 'switchboard', mcpTools: none,
      description: 'The package’s command: runs the MCP server and the desktop bridge on your machine.',
      snippets: [
        { client: 'shell', language: 'shell', content: 'npm install --global switchboard' },
        { client: 'shell', language: 'shell', content: `export SWITCHBOARD_URL=${JSON.stringify(baseUrl)}\nexport SWITCHBOARD_API_KEY=${JSON.stringify(KEY_PLACEHOLDER)}\nswitchboard mcp` },
      ] },
  ];
}
