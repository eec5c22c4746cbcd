// The setup wizards of the integrations tiles (D14): 3–5 steps whose snippets carry this
// deployment's real URL and a key created for the wizard (shown once, like POST /api/keys).
// Pure: the caller creates the key and passes it in.

export interface Snippet {
  /** Which client or tool the snippet is for ('Claude Desktop', 'Cursor', 'VS Code', 'shell', …). */
  client: string;
  /** Where it goes, when it is a file. */
  path: string | null;
  language: 'json' | 'shell' | 'typescript' | 'python';
  content: string;
}
export interface Step {
  title: string;
  text: string;
  snippets: Snippet[];
}

export const WIZARD_TOOLS = ['mcp', 'openai-sdk', 'anthropic-sdk', 'gemini-sdk', 'browser-extension'] as const;
export type WizardTool = (typeof WIZARD_TOOLS)[number];

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** The MCP server's launch block, the same in every client. */
function mcpServer(baseUrl: string, key: string) {
  return { command: 'switchboard', args: ['mcp'], env: { SWITCHBOARD_URL: baseUrl, SWITCHBOARD_API_KEY: key } };
}

export function mcpClientConfigs(baseUrl: string, key: string): Snippet[] {
  const server = mcpServer(baseUrl, key);
  return [
    {
      client: 'Claude Desktop',
      path: 'claude_desktop_config.json (Settings → Developer → Edit Config; macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\)',
      language: 'json',
      content: json({ mcpServers: { switchboard: server } }),
    },
    { client: 'Cursor', path: '~/.cursor/mcp.json (all projects) or .cursor/mcp.json (this project)', language: 'json', content: json({ mcpServers: { switchboard: server } }) },
    { client: 'VS Code', path: '.vscode/mcp.json (this workspace), or MCP: Open User Configuration', language: 'json', content: json({ servers: { switchboard: { type: 'stdio', ...server } } }) },
  ];
}

export function wizardSteps(tool: WizardTool, baseUrl: string, key: string, keyName: string): Step[] {
  const keyStep: Step = {
    title: 'Your key',
    text: `A key named "${keyName}" was created for this project. It is shown only here: the snippets below carry it. Revoke it any time in the developer zone.`,
    snippets: [],
  };
  switch (tool) {
    case 'mcp':
      return [
        {
          title: 'Install the switchboard command',
          text: 'On the machine where your MCP client runs, install Node.js 20 or later, then the Switchboard package, so that the `switchboard` command is on your PATH (from a Switchboard checkout: `npm ci && npm run build && npm link`).',
          snippets: [{ client: 'shell', path: null, language: 'shell', content: 'npm install --global switchboard' }],
        },
        keyStep,
        {
          title: 'Add Switchboard to your MCP client',
          text: 'Paste the block for your client into its MCP configuration (merge it into an existing "mcpServers" or "servers" object), then restart the client.',
          snippets: mcpClientConfigs(baseUrl, key),
        },
        {
          title: 'Check it',
          text: 'Ask your assistant to use the Switchboard "wallet" tool. This tile turns connected as soon as the server starts (it checks its key and sends a heartbeat); its calls appear in the activity feed on channel mcp.',
          snippets: [],
        },
      ];
    case 'openai-sdk':
      return [
        { title: 'Install the SDK', text: 'Install the official OpenAI SDK if your project does not have it yet.', snippets: [{ client: 'shell', path: null, language: 'shell', content: 'npm install openai' }] },
        keyStep,
        {
          title: 'Point the client at Switchboard',
          text: 'Only the base URL and the key change. The model you name is only a hint ("auto" is fine): Switchboard picks the model class.',
          snippets: [
            {
              client: 'openai (Node)',
              path: null,
              language: 'typescript',
              content: `import OpenAI from 'openai';\n\nconst openai = new OpenAI({ baseURL: ${JSON.stringify(`${baseUrl}/v1`)}, apiKey: ${JSON.stringify(key)} });\nconst r = await openai.chat.completions.create({ model: 'auto', messages: [{ role: 'user', content: 'Hello!' }] });\nconsole.log(r.choices[0].message.content);`,
            },
            { client: 'openai (Python)', path: null, language: 'python', content: `from openai import OpenAI\n\nclient = OpenAI(base_url=${JSON.stringify(`${baseUrl}/v1`)}, api_key=${JSON.stringify(key)})` },
          ],
        },
        { title: 'Check it', text: 'Run the connection test on this tile, or make one call: the tile turns connected with the first call.', snippets: [] },
      ];
    case 'anthropic-sdk':
      return [
        { title: 'Install the SDK', text: 'Install the official Anthropic SDK if your project does not have it yet.', snippets: [{ client: 'shell', path: null, language: 'shell', content: 'npm install @anthropic-ai/sdk' }] },
        keyStep,
        {
          title: 'Point the client at Switchboard',
          text: 'Only the base URL and the key change. The model you name is only a hint ("auto" is fine): Switchboard picks the model class.',
          snippets: [
            {
              client: '@anthropic-ai/sdk',
              path: null,
              language: 'typescript',
              content: `import Anthropic from '@anthropic-ai/sdk';\n\nconst anthropic = new Anthropic({ baseURL: ${JSON.stringify(baseUrl)}, apiKey: ${JSON.stringify(key)} });\nconst m = await anthropic.messages.create({ model: 'auto', max_tokens: 512, messages: [{ role: 'user', content: 'Hello!' }] });`,
            },
          ],
        },
        { title: 'Check it', text: 'Run the connection test on this tile, or make one call: the tile turns connected with the first call.', snippets: [] },
      ];
    case 'browser-extension':
      return [
        {
          title: 'Install the extension',
          text: 'Build it from the Switchboard package (or use the zip your administrator gives you), then in Chrome or Chromium open chrome://extensions, turn on Developer mode and choose "Load unpacked" with the dist/extension folder.',
          snippets: [{ client: 'shell', path: null, language: 'shell', content: 'npm ci && npm run build:extension   # → dist/extension/ and dist/switchboard-extension-<version>.zip' }],
        },
        keyStep,
        {
          title: 'Fill in its options',
          text: 'Right-click the Switchboard icon → Options. Enter the URL and the key below, list the sites whose OpenAI, Anthropic and Gemini calls should go through Switchboard (one a line, e.g. app.example.com), then choose "Save and check".',
          snippets: [{ client: 'Switchboard extension options', path: null, language: 'json', content: json({ 'Switchboard URL': baseUrl, 'Service key': key, 'Enabled sites': ['app.example.com'] }) }],
        },
        {
          title: 'Check it',
          text: 'This tile turns connected when the options are saved (the extension checks its key with a heartbeat). Reload an enabled site and use its AI feature: the popup shows the site as routed and today’s calls, which appear in the activity feed on channel extension.',
          snippets: [],
        },
      ];
    case 'gemini-sdk':
      return [
        { title: 'Install the SDK', text: 'Install the official Google Gen AI SDK if your project does not have it yet.', snippets: [{ client: 'shell', path: null, language: 'shell', content: 'npm install @google/genai' }] },
        keyStep,
        {
          title: 'Point the client at Switchboard',
          text: 'Only the base URL and the key change. The model you name is only a hint ("auto" is fine): Switchboard picks the model class.',
          snippets: [
            {
              client: '@google/genai',
              path: null,
              language: 'typescript',
              content: `import { GoogleGenAI } from '@google/genai';\n\nconst ai = new GoogleGenAI({ apiKey: ${JSON.stringify(key)}, httpOptions: { baseUrl: ${JSON.stringify(`${baseUrl}/v1/generate`)} } });\nconst r = await ai.models.generateContent({ model: 'auto', contents: 'Hello!' });`,
            },
          ],
        },
        { title: 'Check it', text: 'Run the connection test on this tile, or make one call: the tile turns connected with the first call.', snippets: [] },
      ];
  }
}
