// The call context (the project's quality floor, region and benchmark provider) is read from the
// database on every proxied call, yet changes only when someone edits a project. Memoising it per
// service key for one second removes one database round trip from each call (≈0.35–0.45 ms of latency
// and ≈0.1 ms of CPU in both Node and PostgreSQL on the benchmark machine, docs/performance.md)
// while a project edit still reaches every call within a second, well inside the 60 s that a key
// change may take to reach another replica (KeyCache). Revoked keys never get this far: the key
// cache rejects them first, and deleting a project revokes its keys.
//
// The expiry runs on the monotonic clock, not the service clock, so tests that freeze time still
// see project edits after a second, as production does. Concurrent misses for one key share one
// query; a failed load is not remembered.
import type { Services } from '../../app/services.ts';
import type { CallDeps } from '../../app/call/pipeline.ts';
import type { KeyPrincipal } from '../../app/keys.ts';

type Accounting = CallDeps['accounting'];
type CallContext = Awaited<ReturnType<Accounting['loadCallContext']>>;
type Load = Accounting['loadCallContext'];

export const CALL_CONTEXT_TTL_MS = 1_000;

export class CallContextCache {
  private entries = new Map<string, { at: number; value: Promise<CallContext> }>();

  constructor(
    private readonly ttlMs = CALL_CONTEXT_TTL_MS,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async get(s: Services, p: KeyPrincipal, load: Load): Promise<CallContext> {
    const t = this.now();
    let hit = this.entries.get(p.keyId);
    if (!hit || t - hit.at >= this.ttlMs) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      const entry = { at: t, value: load(s, p) };
      this.entries.set(p.keyId, entry);
      entry.value.catch(() => {
        if (this.entries.get(p.keyId) === entry) this.entries.delete(p.keyId);
      });
      hit = entry;
    }
    // A copy per call: the pipeline owns its context and may annotate it.
    return { ...(await hit.value) };
  }
}

const memo = new WeakMap<Services, { calls: CallDeps; accounting: Accounting; deps: CallDeps }>();

/**
 * The pipeline's collaborators as the proxy routes use them: the service container's own, with
 * the call context read through a CallContextCache. Rebuilt if the container's are replaced.
 */
export function proxyCallDeps(s: Services): CallDeps {
  const m = memo.get(s);
  if (m && m.calls === s.calls && m.accounting === s.calls.accounting) return m.deps;
  const calls = s.calls;
  const accounting = calls.accounting;
  const cache = new CallContextCache();
  const deps: CallDeps = { ...calls, accounting: { ...accounting, loadCallContext: (svc, p) => cache.get(svc, p, accounting.loadCallContext) } };
  memo.set(s, { calls, accounting, deps });
  return deps;
}
