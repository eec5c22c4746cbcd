// The default run's smoke check (used by .ci/run): the printed demo key makes a real call.
import { readFileSync } from 'node:fs';
const [url, demoFile] = process.argv.slice(2);
const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
const login = await fetch(`${url}/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: demo.email, password: demo.password }),
});
if (login.status !== 200) throw new Error(`demo login answered ${login.status}`);
const models = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${demo.key}` } });
if (models.status !== 200) throw new Error(`GET /v1/models with the demo key answered ${models.status}`);
const chat = await fetch(`${url}/v1/chat/completions`, {
  method: 'POST',
  headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello in five words.' }] }),
});
const body = await chat.json();
if (chat.status !== 200 || !body.choices?.[0]?.message?.content) throw new Error(`demo chat call answered ${chat.status}: ${JSON.stringify(body)}`);
console.log(`smoke: demo login ok, /v1/models ok, chat call ok (${body.usage.total_tokens} tokens)`);
