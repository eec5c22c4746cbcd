// The default run's smoke check (used by .ci/run): the printed demo key makes a real call.
import { readFileSync } from 'node:fs';
const [url, demoFile, mode] = process.argv.slice(2);
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
// The wallet shows the $10 demo credit minus what the calls so far cost, and the ledger verifies.
const token = (await login.json()).data.tokens.accessToken;
const wallet = await (await fetch(`${url}/api/tenant/wallet`, { headers: { authorization: `Bearer ${token}` } })).json();
const verify = await (await fetch(`${url}/api/tenant/ledger/verify`, { headers: { authorization: `Bearer ${token}` } })).json();
const ledger = await (await fetch(`${url}/api/tenant/ledger?limit=200`, { headers: { authorization: `Bearer ${token}` } })).json();
if (!verify.data?.verified) throw new Error(`ledger does not verify: ${JSON.stringify(verify)}`);
const usage = ledger.data.items.filter((e) => e.customerLabel === 'AI usage').length;
if (mode === '--after-restart' && usage < 2) throw new Error(`after a restart the earlier call's ledger entry is gone (${usage} AI usage entries)`);
if (BigInt(wallet.data.balance) >= 10_000_000n) throw new Error(`the call was not debited: ${JSON.stringify(wallet.data)}`);
console.log(`smoke${mode ? ` ${mode}` : ''}: demo login ok, /v1/models ok, chat call ok (${body.usage.total_tokens} tokens), balance ${wallet.data.balance} micros, ${usage} AI usage entries, ledger verified`);
