// <PROVIDER>_BASE_URL in each vendor SDK's documented form or as a bare origin (issue 14, item 8):
// each spelling below points one provider at the simulated upstream, and a call made with an
// official SDK through Switchboard reaches that provider's real route there.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { startTestServer, tenantWithKey } from '../../../test/harness.ts';
import { startSim, type SimHandle } from '../../sim/index.ts';
import { splitBaseUrl, upstreamUrl } from './providers.ts';

let sim: SimHandle;
before(async () => {
  sim = await startSim({ port: 0, host: '127.0.0.1' });
});
after(() => sim.close());

async function simCount(provider: string): Promise<number> {
  const r = await fetch(`${sim.url}/__sim/stats`);
  const s = (await r.json()) as { byProvider: Record<string, number> };
  return s.byProvider[provider] ?? 0;
}

type Client = 'openai' | 'anthropic' | 'gemini';
async function callThrough(url: string, key: string, client: Client): Promise<string> {
  const prompt = 'Name three rivers.';
  if (client === 'openai') {
    const c = new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
    const r = await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }] });
    return r.choices[0]!.message.content ?? '';
  }
  if (client === 'anthropic') {
    const c = new Anthropic({ baseURL: url, apiKey: key, maxRetries: 0 });
    const r = await c.messages.create({ model: 'claude-3-5-haiku-latest', max_tokens: 200, messages: [{ role: 'user', content: prompt }] });
    return r.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  }
  const c = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: `${url}/v1/generate` } });
  const r = await c.models.generateContent({ model: 'gemini-2.0-flash', contents: prompt });
  return r.text ?? '';
}

// [provider, what the operator writes after the simulator's per-provider prefix, client SDK]
const SPELLINGS: Array<[string, string, Client]> = [
  ['openai', '/v1', 'openai'], // as OPENAI_BASE_URL is for the openai SDK
  ['openai', '/v1/', 'anthropic'],
  ['openai', '', 'gemini'], // a bare origin
  ['mistral', '/v1', 'openai'],
  ['deepseek', '', 'openai'],
  ['anthropic', '', 'anthropic'], // the Anthropic SDK's origin
  ['anthropic', '/v1', 'openai'],
  ['google', '', 'gemini'], // the Gemini SDK's origin
  ['google', '/v1beta', 'anthropic'],
];

describe('each provider under each spelling of its base URL', () => {
  for (const [provider, suffix, client] of SPELLINGS) {
    test(`${provider.toUpperCase()}_BASE_URL=<sim>/${provider}${suffix} (called with the ${client} SDK)`, async () => {
      const srv = await startTestServer({ sim, env: { [`${provider.toUpperCase()}_BASE_URL`]: `${sim.url}/${provider}${suffix}`, [`${provider.toUpperCase()}_API_KEY`]: 'sk-sim' } });
      try {
        const t = await tenantWithKey(srv);
        const before = await simCount(provider);
        const text = await callThrough(srv.url, t.key, client);
        assert.ok(text.length > 0);
        assert.ok((await simCount(provider)) > before, `the call reached ${provider}'s route on the simulator`);
      } finally {
        await srv.close();
      }
    });
  }
});

test('a base URL with no such route answers 502 naming the setting to check, not a client error', async () => {
  const srv = await startTestServer({ sim, env: { OPENAI_BASE_URL: `${sim.url}/openai/nothing-here/v1`, OPENAI_API_KEY: 'sk-sim' } });
  try {
    const t = await tenantWithKey(srv);
    const c = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const err = await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof OpenAI.APIError, String(err));
    assert.equal(err.status, 502);
    assert.match(err.message, /OPENAI_BASE_URL/);
    assert.doesNotMatch(err.message, /nothing-here/, 'the operator’s URL is not shown to the client');
  } finally {
    await srv.close();
  }
});

test('splitBaseUrl / upstreamUrl: the version a URL ends in replaces the wire path’s own', () => {
  const at = (raw: string, path: string) => upstreamUrl(splitBaseUrl(raw), path);
  assert.equal(at('http://127.0.0.1:8000/v1', '/v1/chat/completions'), 'http://127.0.0.1:8000/v1/chat/completions');
  assert.equal(at('http://127.0.0.1:8000', '/v1/chat/completions'), 'http://127.0.0.1:8000/v1/chat/completions');
  assert.equal(at('https://open.bigmodel.cn/api/paas/v4/', '/v1/chat/completions'), 'https://open.bigmodel.cn/api/paas/v4/chat/completions');
  assert.equal(at('https://api.anthropic.com', '/v1/messages'), 'https://api.anthropic.com/v1/messages');
  assert.equal(at('https://api.anthropic.com/v1', '/v1/messages'), 'https://api.anthropic.com/v1/messages');
  const g = '/v1beta/models/gemini-2.0-flash:generateContent';
  assert.equal(at('https://generativelanguage.googleapis.com', g), `https://generativelanguage.googleapis.com${g}`);
  assert.equal(at('https://generativelanguage.googleapis.com/v1beta', g), `https://generativelanguage.googleapis.com${g}`);
  assert.equal(at('https://generativelanguage.googleapis.com/v1', g), 'https://generativelanguage.googleapis.com/v1/models/gemini-2.0-flash:generateContent');
});
