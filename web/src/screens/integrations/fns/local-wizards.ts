// Setup wizards of the tiles whose steps the web app writes itself (the API's
// POST /api/projects/:id/integrations/:tool/setup covers the MCP server and the three SDKs): the
// snippets carry this deployment's URL and, where the connector needs one, a key just created
// for the chosen project and environment (shown once).

export interface WizardStep {
  title: string;
  text: string;
  snippets: Array<{ client: string; language: string; content: string }>;
}

export const LOCAL_WIZARD_TOOLS = ['browser-extension', 'desktop-bridge', 'copy-paste', 'advisory'] as const;
/** Which of them get a fresh key (the bridge signs in by device approval; copy-paste is the web app). */
export const NEEDS_KEY = new Set(['browser-extension', 'advisory']);

export function localWizard(tool: string, baseUrl: string, key: string | null): WizardStep[] {
  const k = key ?? '';
  switch (tool) {
    case 'browser-extension':
      return [
        { title: 'Build the extension', text: 'From a Switchboard checkout, build the Chromium extension: a folder to load unpacked and a zip.', snippets: [{ client: 'shell', language: 'shell', content: 'npm ci\nnpm run build:extension   # → dist/extension and dist/switchboard-extension-<version>.zip' }] },
        { title: 'Load it in Chromium', text: 'Open chrome://extensions, turn on Developer mode, choose "Load unpacked" and pick the dist/extension folder.', snippets: [] },
        { title: 'Your key', text: 'A key was created for this project; it is shown only here. The extension keeps it in its own storage, never in the page.', snippets: [{ client: 'service key', language: 'text', content: k }] },
        { title: 'Configure it', text: 'Open the extension\u2019s options: paste the Switchboard URL and the key, and list the sites whose calls to model vendors it should route. Saving checks the connection.', snippets: [{ client: 'Switchboard URL', language: 'text', content: baseUrl }] },
        { title: 'Check it', text: 'This tile turns connected when the options are saved (the extension checks in) or on the first call from an enabled site.', snippets: [] },
      ];
    case 'desktop-bridge':
      return [
        { title: 'Install the switchboard command', text: 'On your desktop, install Node.js 20 or later and the Switchboard package.', snippets: [{ client: 'shell', language: 'shell', content: 'npm install --global switchboard' }] },
        { title: 'Start the bridge', text: 'It shows a code and waits for your approval.', snippets: [{ client: 'shell', language: 'shell', content: `SWITCHBOARD_URL=${JSON.stringify(baseUrl)} switchboard bridge` }] },
        { title: 'Approve the device', text: `Open ${baseUrl}/device while signed in here and enter the code the bridge shows.`, snippets: [] },
        { title: 'Check it', text: 'Alerts of your projects now arrive as desktop notifications; the session appears on Security, where it can be revoked.', snippets: [] },
      ];
    case 'copy-paste':
      return [
        { title: 'Open Copy-paste', text: `Open ${baseUrl}/copy-paste (it is in the menu on the left).`, snippets: [] },
        { title: 'Choose the project', text: 'Pick the project the call is billed to; its budget and quality floor apply.', snippets: [] },
        { title: 'Paste and copy back', text: 'Paste the prompt (and optional system text), get the answer, copy it with the button and paste it where you need it.', snippets: [] },
      ];
    case 'advisory':
      return [
        { title: 'Export your call history', text: 'NDJSON lines of {request, response} in any of the three vendor shapes, OpenAI Batch output files, or CSV with timestamp,provider,model,prompt,completion,input_tokens,output_tokens (up to 100,000 rows).', snippets: [] },
        { title: 'Your key', text: 'A key was created for this project; it is shown only here.', snippets: [{ client: 'service key', language: 'text', content: k }] },
        { title: 'Upload it', text: 'Upload with the command (it prints the report with a progress bar), or on the Advisory page.', snippets: [{ client: 'shell', language: 'shell', content: `SWITCHBOARD_URL=${JSON.stringify(baseUrl)} SWITCHBOARD_API_KEY=${JSON.stringify(k)} switchboard advisory calls.ndjson` }] },
        { title: 'Read the report', text: 'What Switchboard would have routed and saved against your benchmark provider. Nothing is called, nothing is billed.', snippets: [] },
      ];
    default:
      return [];
  }
}
