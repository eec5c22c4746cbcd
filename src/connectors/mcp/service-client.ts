// The MCP server's way into Switchboard: plain HTTP to the same deployment everyone else uses.
// `ask` goes through the proxy (/v1/chat/completions, so routing, wallet and ledger are the
// proxy's own) named as its channel (D14); the reads go to the key-authenticated connector
// endpoints. Every failure becomes a ServiceError whose text tells the user what to do next.
import type { CHANNELS } from '../../app/events/index.ts';

export type Channel = (typeof CHANNELS)[number];

export class ServiceError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null,
  ) {
    super(message);
  }
}

export interface Credentials {
  /** The credential sent as `Authorization: Bearer`. A function: the bridge rotates its own. */
  bearer: () => Promise<string> | string;
}

export interface AskInput {
  prompt: string;
  system?: string;
  format?: 'text' | 'json';
  maxTokens?: number;
}
export interface AskResult {
  text: string;
  callId: string;
  modelClass: string;
  costMicros: string;
  savingsTokens: string | null;
}
export interface Identity {
  tenantName: string;
  projectId: string;
  projectName: string;
  environment: string;
  billingUrl: string;
  channel: Channel;
}
export interface WalletResult {
  balance: string;
  reserved: string;
  available: string;
  usdEquivalent: string;
  runway: number | null;
  billingUrl: string;
}
export interface SavingsResult {
  windowDays: number;
  benchmarkProvider: string | null;
  serviceBurn: string;
  equivalentBurnLabel: string;
  equivalentBurn: string | null;
  tokensSaved: string | null;
  percentSavedBps: string | null;
  series: Array<{ day: string; serviceBurn: string; equivalentBurn: string | null }>;
}
export interface ActivityItem {
  kind: string;
  id: string;
  at: string;
  channel: string;
  label: string;
  modelClass: string | null;
  serviceBurn: string | null;
  tokensSaved: string | null;
  promptExcerpt: string | null;
}

const ASK_TIMEOUT_MS = 180_000;
const READ_TIMEOUT_MS = 20_000;

export class ServiceClient {
  constructor(
    readonly baseUrl: string,
    private readonly creds: Credentials,
    readonly channel: Channel,
  ) {}

  /** What to tell the user for a status the service answered with. */
  private advice(status: number, code: string | null, message: string): string {
    const u = this.baseUrl;
    switch (status) {
      case 401:
        return `Switchboard refused the credentials (${message}). Create a new service key at ${u}/developer-zone and set it as SWITCHBOARD_API_KEY in this MCP server's configuration.`;
      case 402:
        return code === 'budget_exceeded'
          ? `${message}. Raise the project's monthly budget at ${u}/smartone, or top up at ${u}/billing.`
          : `The Switchboard wallet cannot cover this call (${message}). Top up at ${u}/billing, then try again.`;
      case 403:
        return `Switchboard refused this request (${message}). Ask an administrator of your Switchboard account for access.`;
      case 429:
        return `Switchboard's rate limit was reached (${message}). Wait a minute, then try again.`;
      case 502:
      case 503:
      case 504:
        return `Switchboard could not get an answer from a model provider (${message}). Try again in a moment; if it persists, check the service status at ${u}/health.`;
      default:
        return status >= 500 ? `Switchboard failed (${status}: ${message}). Try again in a moment.` : `Switchboard rejected the request (${status}: ${message}).`;
    }
  }

  private async request(method: 'GET' | 'POST', path: string, body: unknown, timeoutMs: number): Promise<{ json: any; headers: Headers }> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.creds.bearer()}`, 'x-service-channel': this.channel, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
    } catch (e) {
      const why = e instanceof Error ? (e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : ((e.cause as Error | undefined)?.message ?? e.message)) : String(e);
      throw new ServiceError(`Switchboard at ${this.baseUrl} could not be reached (${why}). Check SWITCHBOARD_URL and that the service is running.`, null, null);
    }
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: described below */
    }
    if (!res.ok) {
      // Vendor shape on the proxy ({error: {message, code}}), the envelope on /api ({error, code}).
      const message = (typeof json?.error === 'string' ? json.error : json?.error?.message) ?? (text.slice(0, 200) || res.statusText);
      const code = (typeof json?.error === 'string' ? json?.code : json?.error?.code) ?? null;
      throw new ServiceError(this.advice(res.status, code, String(message).replace(/\.$/, '')), res.status, code);
    }
    if (json === null) throw new ServiceError(`Switchboard at ${this.baseUrl} answered ${res.status} without JSON: is SWITCHBOARD_URL the service's base address?`, res.status, null);
    return { json, headers: res.headers };
  }

  /** Says the connector is alive and learns whose key it holds; a bad key fails here. */
  async hello(): Promise<Identity> {
    return (await this.request('POST', '/api/connector/heartbeat', {}, READ_TIMEOUT_MS)).json.data;
  }

  async ask(input: AskInput): Promise<AskResult> {
    const messages = [...(input.system ? [{ role: 'system', content: input.system }] : []), { role: 'user', content: input.prompt }];
    const body: Record<string, unknown> = { model: 'switchboard-mcp', messages };
    if (input.maxTokens !== undefined) body.max_tokens = input.maxTokens;
    if (input.format === 'json') body.response_format = { type: 'json_object' };
    const { json, headers } = await this.request('POST', '/v1/chat/completions', body, ASK_TIMEOUT_MS);
    const content = json?.choices?.[0]?.message?.content;
    return {
      text: typeof content === 'string' ? content : '',
      callId: headers.get('x-service-call-id') ?? json.id ?? '',
      modelClass: headers.get('x-service-model-class') ?? 'unknown',
      costMicros: headers.get('x-service-cost-micros') ?? '0',
      // A figure, or 'null' when the tenant has no benchmark provider (D7).
      savingsTokens: /^-?\d+$/.test(headers.get('x-service-tokens-saved') ?? '') ? headers.get('x-service-tokens-saved') : null,
    };
  }

  async wallet(): Promise<WalletResult> {
    return (await this.request('GET', '/api/connector/wallet', undefined, READ_TIMEOUT_MS)).json.data;
  }

  async savings(windowDays: 7 | 30 | 90): Promise<SavingsResult> {
    return (await this.request('GET', `/api/connector/savings?window=${windowDays}`, undefined, READ_TIMEOUT_MS)).json.data;
  }

  async activity(limit: number): Promise<ActivityItem[]> {
    return (await this.request('GET', `/api/connector/activity?limit=${limit}`, undefined, READ_TIMEOUT_MS)).json.data.items;
  }
}
