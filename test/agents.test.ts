// D19: the coding agents people really use, unmodified, at the versions pinned in package.json —
// Claude Code (ANTHROPIC_BASE_URL), Codex CLI (a model provider with wire_api = "responses") and
// Gemini CLI (GOOGLE_GEMINI_BASE_URL) — run non-interactively against the real server (the same
// startRuntime `npm start` runs) and the simulated upstream. Each answers a one-line question,
// then runs one of its own tools because the prompt names it, and carries the tool's result to a
// final answer. Every model call an agent made is an AI usage entry in the tenant's ledger.
// All traffic stays on loopback: any proxy-respecting request elsewhere goes to a closed port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, tenantWithKey, type TestServer } from './harness.ts';

const require = createRequire(import.meta.url);
const CLAUDE = join(dirname(require.resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}/package.json`)), 'claude');
const CODEX = join(dirname(require.resolve('@openai/codex/package.json')), 'bin', 'codex.js');
const GEMINI = join(dirname(require.resolve('@google/gemini-cli/package.json')), 'bundle', 'gemini.js');

const LOOPBACK_ONLY = { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1,localhost' };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      // Only what the agent needs: no inherited vendor keys or base URLs from the machine.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'dumb', CI: '1', ...LOOPBACK_ONLY, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('real coding agents through Switchboard (D19)', () => {
  let srv: TestServer;
  let t: Awaited<ReturnType<typeof tenantWithKey>>;
  const dirs: string[] = [];

  const workdir = (name: string): string => {
    const d = mkdtempSync(join(tmpdir(), `sb-agent-${name}-`));
    dirs.push(d);
    return d;
  };

  /** Run an agent and check that every model call it made was settled into the ledger. */
  async function ledgered(fn: () => Promise<Run>): Promise<Run> {
    const calls = srv.sim.stats.total;
    const entries = await usageEntries();
    const r = await fn();
    const made = srv.sim.stats.total - calls;
    assert.ok(made > 0, `the agent made no model call:\n${r.stdout}\n${r.stderr}`);
    assert.equal((await usageEntries()) - entries, made, 'one AI usage ledger entry per model call');
    return r;
  }

  async function usageEntries(): Promise<number> {
    const row = await srv.services.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', t.tenantId)
      .where('event_type', '=', 'AI_USAGE')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  before(async () => {
    srv = await startTestServer();
    t = await tenantWithKey(srv, { micros: 100_000_000_000n });
  });
  after(async () => {
    await srv?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  describe('Claude Code', () => {
    const claude = (cwd: string, args: string[], prefix = '') =>
      run(
        CLAUDE,
        ['-p', ...args],
        {
          HOME: cwd,
          ANTHROPIC_BASE_URL: srv.url + prefix,
          ANTHROPIC_API_KEY: t.key,
          DISABLE_AUTOUPDATER: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        },
        cwd,
      );

    it('answers a one-line question', async () => {
      const cwd = workdir('claude');
      const r = await ledgered(() => claude(cwd, ['Say hello in five words.']));
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.match(r.stdout, /Here is a simulated answer to "Say hello in five words"/);
    });

    it('answers through the vendor-prefixed proxy too (its request piped through as sent)', async () => {
      const cwd = workdir('claude');
      const r = await ledgered(() => claude(cwd, ['Say hello in five words.'], '/v1/messages-proxy'));
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.match(r.stdout, /Here is a simulated answer to "Say hello in five words"/);
      assert.equal(srv.sim.stats.last!.search, '?beta=true');
      assert.match(srv.sim.stats.last!.headers['anthropic-beta'] ?? '', /claude-code-/);
    });

    it('writes a file with its Write tool and reports the result', async () => {
      const cwd = workdir('claude');
      const file = join(cwd, 'hello.txt');
      const r = await ledgered(() => claude(cwd, ['--allowedTools', 'Write', '--', `Use the Write tool to create ${file} containing "hello from switchboard".`]));
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.equal(readFileSync(file, 'utf8'), 'hello from switchboard');
      assert.match(r.stdout, /The Write tool returned: File created successfully/);
    });
  });

  describe('Codex CLI', () => {
    const codex = (cwd: string, prompt: string) =>
      run(
        process.execPath,
        [
          CODEX,
          'exec',
          '--skip-git-repo-check',
          '--dangerously-bypass-approvals-and-sandbox',
          '-c', 'model_provider=switchboard',
          '-c', 'model=gpt-5.1-codex',
          '-c', 'model_providers.switchboard.name="Switchboard"',
          '-c', `model_providers.switchboard.base_url="${srv.url}/v1"`,
          '-c', 'model_providers.switchboard.env_key="SWITCHBOARD_KEY"',
          '-c', 'model_providers.switchboard.wire_api="responses"',
          '-c', 'model_providers.switchboard.request_max_retries=0',
          '-c', 'model_providers.switchboard.stream_max_retries=0',
          '-c', 'check_for_update_on_startup=false',
          '-c', 'analytics.enabled=false',
          prompt,
        ],
        { HOME: cwd, CODEX_HOME: join(cwd, '.codex'), SWITCHBOARD_KEY: t.key },
        cwd,
      );

    it('answers a one-line question', async () => {
      const cwd = workdir('codex');
      mkdirSync(join(cwd, '.codex'));
      const r = await ledgered(() => codex(cwd, 'Say hello in five words.'));
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.match(r.stdout, /Here is a simulated answer to "Say hello in five words"/);
    });

    it('runs a shell command with exec_command and carries its output to the answer', async () => {
      const cwd = workdir('codex');
      mkdirSync(join(cwd, '.codex'));
      const r = await ledgered(() => codex(cwd, 'Use exec_command to run `echo codex-was-here > marker.txt && cat marker.txt`.'));
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.equal(readFileSync(join(cwd, 'marker.txt'), 'utf8').trim(), 'codex-was-here');
      assert.match(r.stdout, /The exec_command tool returned:[\s\S]*codex-was-here/);
    });
  });

  describe('Gemini CLI', () => {
    const gemini = (cwd: string, args: string[]) => {
      mkdirSync(join(cwd, '.gemini'), { recursive: true });
      writeFileSync(
        join(cwd, '.gemini', 'settings.json'),
        JSON.stringify({
          security: { auth: { selectedType: 'gemini-api-key' } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
        }),
      );
      return run(
        process.execPath,
        [GEMINI, ...args],
        {
          HOME: cwd,
          GOOGLE_GEMINI_BASE_URL: `${srv.url}/v1/generate`,
          GEMINI_API_KEY: t.key,
          GEMINI_CLI_NO_RELAUNCH: 'true',
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          NO_BROWSER: 'true',
        },
        cwd,
      );
    };

    it('answers a one-line question (its JSON router call included)', async () => {
      const cwd = workdir('gemini');
      const r = await ledgered(() => gemini(cwd, ['-p', 'Say hello in five words.']));
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.match(r.stdout, /Here is a simulated answer to "Say hello in five words"/);
      // Its router asks for JSON by responseJsonSchema; a bare string would fail its parse.
      assert.doesNotMatch(r.stderr, /Invalid JSON response format/);
    });

    it('runs a shell command with run_shell_command and carries its output to the answer', async () => {
      const cwd = workdir('gemini');
      const r = await ledgered(() => gemini(cwd, ['--yolo', '-p', 'Use run_shell_command to run `echo gemini-was-here > marker.txt && cat marker.txt`.']));
      assert.equal(r.code, 0, r.stderr + r.stdout);
      assert.equal(readFileSync(join(cwd, 'marker.txt'), 'utf8').trim(), 'gemini-was-here');
      assert.match(r.stdout, /The run_shell_command tool returned:[\s\S]*gemini-was-here/);
    });
  });
});
