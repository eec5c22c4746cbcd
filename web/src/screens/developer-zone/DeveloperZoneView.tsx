// /developer-zone, pure: Clients (service keys per environment: create, rotate with the 24-hour
// overlap counting down, revoke), Tools (GET /api/tools) and the Model Marketplace
// (GET /api/models/catalogue). Brands, not model ids, in primary copy; ids only on request.
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import type { Catalogue, KeyRecord, Project, ToolItem } from '../../api/types.ts';
import { Button, Card, Field, LoadMore, Notice } from '../../components/ui.tsx';
import type { FieldErrors } from '../../components/fns/form.ts';
import { formatWhen } from '../../components/fns/dates.ts';
import { ENVIRONMENTS, formatCountdown, keyState, spokenCountdown } from './fns/keys.ts';

export function DevTabs(p: { tab: string; onTab: (t: string) => void; clients: React.ReactNode; tools: React.ReactNode; models: React.ReactNode }) {
  return (
    <Tabs selectedKey={p.tab} onSelectionChange={(k) => p.onTab(String(k))} className="tabs">
      <TabList aria-label="Developer zone" className="tablist">
        <Tab id="clients">Clients</Tab>
        <Tab id="tools">Tools</Tab>
        <Tab id="models">Model Marketplace</Tab>
      </TabList>
      <TabPanel id="clients">{p.clients}</TabPanel>
      <TabPanel id="tools">{p.tools}</TabPanel>
      <TabPanel id="models">{p.models}</TabPanel>
    </Tabs>
  );
}

export interface NewKeyForm {
  name: string;
  environment: string;
  projectId: string;
}

type More = { hasMore: boolean; loading: boolean; onMore: () => void };

export function NewKeyCard(p: { form: NewKeyForm; projects: Project[]; projectsMore: More; projectsPaged: boolean; onChange: (f: NewKeyForm) => void; errors: FieldErrors; failure: string; busy: boolean; onCreate: () => void; canEdit: boolean }) {
  if (!p.canEdit) return <p className="muted">Only owners and admins can create, rotate or revoke keys.</p>;
  return (
    <Card title="Create a key">
      <form
        className="inline-form"
        aria-label="Create a key"
        onSubmit={(e) => {
          e.preventDefault();
          p.onCreate();
        }}
      >
        <Field label="Key name" name="keyName" value={p.form.name} onChange={(name) => p.onChange({ ...p.form, name })} error={p.errors.name} />
        <div className="field">
          <label htmlFor="key-env">Environment</label>
          <select id="key-env" className="select" value={p.form.environment} onChange={(e) => p.onChange({ ...p.form, environment: e.target.value })}>
            {ENVIRONMENTS.map((e) => (
              <option key={e.id} value={e.id}>
                {e.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="key-project">Project</label>
          <select id="key-project" className="select" value={p.form.projectId} onChange={(e) => p.onChange({ ...p.form, projectId: e.target.value })}>
            {p.projects.map((pr) => (
              <option key={pr.id} value={pr.id}>
                {pr.name}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" isDisabled={p.busy}>
          Create key
        </Button>
      </form>
      {p.projectsMore.hasMore || p.projectsPaged ? <LoadMore shown={p.projects.length} what="projects" {...p.projectsMore} /> : null}
      <Notice kind="error">{p.failure}</Notice>
    </Card>
  );
}

/** A key just created or rotated: shown once, with a copy button. */
export function ShownOnce(p: { title: string; secret: string; copied: string; onCopy: () => void; onDone: () => void }) {
  return (
    <div className="notice notice-success shown-once" role="status" data-testid="new-key">
      <p>
        <strong>{p.title}</strong> Copy it now: it is shown only once.
      </p>
      <code className="mono secret" tabIndex={0} aria-label="The new key">
        {p.secret}
      </code>
      <div className="filter-actions">
        <Button variant="secondary" onPress={p.onCopy}>
          Copy key
        </Button>
        <Button variant="link" onPress={p.onDone}>
          I have stored it
        </Button>
      </div>
      {p.copied ? <p className="small">{p.copied}</p> : null}
    </div>
  );
}

function Status({ k, now }: { k: KeyRecord; now: number }) {
  const st = keyState(k, now);
  if (st.kind === 'revoked') return <span className="badge badge-bad">Revoked</span>;
  if (st.kind === 'expired') return <span className="badge badge-bad">Expired</span>;
  if (st.kind === 'expiring')
    return (
      <span className="badge badge-warn" data-testid={`countdown-${k.id}`}>
        Works for <span aria-hidden="true">{formatCountdown(st.remainingMs)}</span>
        <span className="sr-only">{spokenCountdown(st.remainingMs)}</span> more
      </span>
    );
  return <span className="badge badge-ok">Active</span>;
}

export function KeysByEnvironment(p: { keys: KeyRecord[]; more: More; projects: Project[]; projectsComplete: boolean; now: number; canEdit: boolean; confirmRevoke: string | null; onRotate: (k: KeyRecord) => void; onAskRevoke: (k: KeyRecord | null) => void; onRevoke: (k: KeyRecord) => void; busy: boolean }) {
  const projectName = (id: string) => p.projects.find((x) => x.id === id)?.name ?? (p.projectsComplete ? 'Deleted project' : 'A project not loaded yet');
  return (
    <>
      {ENVIRONMENTS.map((env) => {
        const rows = p.keys.filter((k) => k.environment === env.id);
        return (
          <Card key={env.id} title={`${env.label} keys`}>
            {rows.length === 0 ? (
              <p className="muted">No {env.label.toLowerCase()} keys yet.</p>
            ) : (
              <div className="table-wrap">
                <table className="table" data-testid={`keys-${env.id}`}>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Project</th>
                      <th scope="col">Key</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Status</th>
                      {p.canEdit ? <th scope="col">Actions</th> : null}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((k) => {
                      const st = keyState(k, p.now);
                      const live = st.kind === 'active';
                      return (
                        <tr key={k.id} data-key-id={k.id}>
                          <td>{k.name}</td>
                          <td>{projectName(k.projectId)}</td>
                          <td className="mono">
                            {k.prefix}…{k.last4}
                          </td>
                          <td>{formatWhen(k.createdAt)}</td>
                          <td>{k.lastUsedAt ? formatWhen(k.lastUsedAt) : 'Never'}</td>
                          <td>
                            <Status k={k} now={p.now} />
                          </td>
                          {p.canEdit ? (
                            <td className="row-actions">
                              {live && p.confirmRevoke !== k.id ? (
                                <>
                                  <Button variant="secondary" onPress={() => p.onRotate(k)} isDisabled={p.busy} aria-label={`Rotate ${k.name}`}>
                                    Rotate
                                  </Button>
                                  <Button variant="secondary" onPress={() => p.onAskRevoke(k)} aria-label={`Revoke ${k.name}`}>
                                    Revoke
                                  </Button>
                                </>
                              ) : null}
                              {st.kind === 'expiring' && p.confirmRevoke !== k.id ? (
                                <Button variant="secondary" onPress={() => p.onAskRevoke(k)} aria-label={`Revoke now: ${k.name}`}>
                                  Revoke now
                                </Button>
                              ) : null}
                              {p.confirmRevoke === k.id ? (
                                <>
                                  <Button onPress={() => p.onRevoke(k)} isDisabled={p.busy} autoFocus aria-label={`Revoke at once: ${k.name}`}>
                                    Revoke at once
                                  </Button>
                                  <Button variant="secondary" onPress={() => p.onAskRevoke(null)}>
                                    Cancel
                                  </Button>
                                </>
                              ) : null}
                            </td>
                          ) : null}
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )}
          </Card>
        );
      })}
      <LoadMore shown={p.keys.length} what="keys" {...p.more} />
    </>
  );
}

export function ToolsList({ tools }: { tools: ToolItem[] }) {
  return (
    <div data-testid="tools">
      {tools.map((t) => (
        <Card key={t.id} title={t.name} actions={<span className={`badge ${t.available ? 'badge-ok' : 'badge-warn'}`}>{t.tier ? `Tier ${t.tier}` : 'CLI'} · {t.available ? 'available' : 'not built yet'}</span>}>
          <p>{t.description}</p>
          {t.command ? (
            <p>
              Command: <code className="mono">{t.command}</code>
            </p>
          ) : null}
          {t.snippets.map((s, i) => (
            <figure key={i} className="snippet">
              <figcaption className="small muted">{s.client}</figcaption>
              <pre className="mono" tabIndex={0} aria-label={`${t.name} snippet for ${s.client}`}>
                {s.content}
              </pre>
            </figure>
          ))}
          {t.mcpTools.length ? (
            <div className="table-wrap">
              <table className="table" aria-label={`${t.name} tools`}>
                <thead>
                  <tr>
                    <th scope="col">MCP tool</th>
                    <th scope="col">What it does</th>
                    <th scope="col">Inputs</th>
                  </tr>
                </thead>
                <tbody>
                  {t.mcpTools.map((m) => (
                    <tr key={m.name}>
                      <td className="mono">{m.name}</td>
                      <td>{m.description}</td>
                      <td>{m.inputs.length ? m.inputs.map((i) => `${i.name}${i.required ? '' : '?'}`).join(', ') : 'none'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </Card>
      ))}
    </div>
  );
}

export interface ModelFilters {
  provider: string;
  modelClass: string;
  capability: string;
}

const CLASSES = ['economy', 'standard', 'premium', 'frontier'];
const CAPS = ['tools', 'json', 'vision', 'streaming'];

export function Marketplace(p: { data: Catalogue | undefined; filters: ModelFilters; onFilters: (f: ModelFilters) => void; showIds: boolean; onShowIds: (v: boolean) => void }) {
  const set = (k: keyof ModelFilters) => (e: React.ChangeEvent<HTMLSelectElement>) => p.onFilters({ ...p.filters, [k]: e.target.value });
  const brands = p.data?.benchmarks ?? [];
  return (
    <>
      <Card title="Routable models">
        <p>What Switchboard can route your calls to in this deployment, with capabilities and list prices. You never pick a model: the routing engine does, by task and quality floor.</p>
        <div className="filters" role="search" aria-label="Filter the models">
          <label>
            Brand
            <select value={p.filters.provider} onChange={set('provider')}>
              <option value="">All</option>
              {brands.map((b) => (
                <option key={b.provider} value={b.provider}>
                  {b.brand}
                </option>
              ))}
            </select>
          </label>
          <label>
            Class
            <select value={p.filters.modelClass} onChange={set('modelClass')}>
              <option value="">All</option>
              {CLASSES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <label>
            Capability
            <select value={p.filters.capability} onChange={set('capability')}>
              <option value="">Any</option>
              {CAPS.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <label className="check">
            <input type="checkbox" checked={p.showIds} onChange={(e) => p.onShowIds(e.target.checked)} /> Show model ids (for engineers)
          </label>
        </div>
        {!p.data ? (
          <p className="muted">Loading the catalogue…</p>
        ) : p.data.models.length === 0 ? (
          <p>No routable model matches these filters.</p>
        ) : (
          <div className="table-wrap">
            <table className="table" data-testid="models">
              <thead>
                <tr>
                  <th scope="col">Brand</th>
                  {p.showIds ? <th scope="col">Model id</th> : null}
                  <th scope="col">Class</th>
                  <th scope="col">Capabilities</th>
                  <th scope="col" className="num">
                    Context (tokens)
                  </th>
                  <th scope="col">Regions</th>
                  <th scope="col" className="num">
                    Input, $ per 1M tokens
                  </th>
                  <th scope="col" className="num">
                    Output, $ per 1M tokens
                  </th>
                </tr>
              </thead>
              <tbody>
                {p.data.models.map((m) => (
                  <tr key={m.id}>
                    <td>{m.brand}</td>
                    {p.showIds ? <td className="mono">{m.id}</td> : null}
                    <td>{m.modelClass}</td>
                    <td>{m.capabilities.map((c) => <span key={c} className="tag">{c}</span>)}</td>
                    <td className="num">{m.contextWindow.toLocaleString('en-US')}</td>
                    <td>{m.regions.join(', ')}</td>
                    <td className="num">${m.inputUsdPerMillionTokens}</td>
                    <td className="num">${m.outputUsdPerMillionTokens}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {p.data ? <p className="small muted">Price book {p.data.pricingVersion}, in effect from {p.data.effectiveFrom}.</p> : null}
      </Card>
      <Card title="Benchmark reference prices">
        <p>Savings are measured against your benchmark provider at these prices, class for class.</p>
        <div className="table-wrap">
          <table className="table" data-testid="benchmarks">
            <thead>
              <tr>
                <th scope="col">Brand</th>
                {CLASSES.map((c) => (
                  <th key={c} scope="col" className="num">
                    {c} (in / out $ per 1M)
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {brands.map((b) => (
                <tr key={b.provider}>
                  <td>{b.brand}</td>
                  {CLASSES.map((c) => {
                    const r = b.references.find((x) => x.modelClass === c);
                    return (
                      <td key={c} className="num">
                        {r ? `$${r.inputUsdPerMillionTokens} / $${r.outputUsdPerMillionTokens}` : '—'}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </>
  );
}
