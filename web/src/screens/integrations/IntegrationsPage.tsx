// /integrations (spec §1, D14): one tile per tool with its tier and its status from what really
// happened, a 3–5 step setup wizard per tile (snippets with this deployment's URL and a key made
// for the chosen project and environment) and a connection test through the tool's own path.
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, get } from '../../api/client.ts';
import { useProjectEvents } from '../../api/events.ts';
import { keys as qkeys, useProjectChoices, useTenant } from '../../api/queries.ts';
import type { CreatedKey } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { Button, Card, Loading, Notice, ProjectsMore } from '../../components/ui.tsx';
import { formatWhen } from '../../components/fns/dates.ts';
import { ENVIRONMENTS } from '../developer-zone/fns/keys.ts';
import { LOCAL_WIZARD_TOOLS, localWizard, NEEDS_KEY, type WizardStep } from './fns/local-wizards.ts';
import '../workspaces.css';

interface Tile {
  tool: string;
  name: string;
  tier: number;
  status: 'connected' | 'disconnected' | 'not configured';
  lastSeenAt: string | null;
}
interface TestResult {
  ok: boolean;
  tool: string;
  path: string;
  latencyMs: number;
  callId: string | null;
  error: string | null;
  message: string;
}
interface Wizard {
  tool: string;
  name: string;
  keyName: string | null;
  steps: WizardStep[];
}

const STATUS_CLASS = { connected: 'badge-ok', disconnected: 'badge-bad', 'not configured': 'badge-muted' } as const;

export default function IntegrationsPage() {
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  // D9 pages of 200, the default first, "Load more" under the select; a project in the address but
  // not on the pages loaded is read on its own, so the address keeps choosing it.
  const projects = useProjectChoices(params.get('project'));
  const tenant = useTenant();
  // Setting up (it makes a key) and testing (a billed call that can move the project's stage) are
  // changes, so the API lets only admins and owners do them; others see the tiles and why.
  const canChange = !!tenant.data && ['owner', 'admin'].includes(tenant.data.role);
  const items = projects.items;
  const project = items.find((p) => p.id === params.get('project')) ?? items.find((p) => p.isDefault) ?? items[0];
  const [environment, setEnvironment] = useState('dev');
  const tiles = useQuery({
    queryKey: ['integrations', project?.id],
    queryFn: ({ signal }) => get<{ items: Tile[] }>(`/api/projects/${project!.id}/integrations`, signal),
    enabled: !!project,
  });
  useProjectEvents(project ? [project.id] : [], (f) => {
    if (f.type.startsWith('connector.') || f.type === 'llm.call') void qc.invalidateQueries({ queryKey: ['integrations', project?.id] });
  });

  const [wizard, setWizard] = useState<Wizard | null>(null);
  const [stepIndex, setStepIndex] = useState(0);
  const [failure, setFailure] = useState('');
  const [results, setResults] = useState<Record<string, TestResult>>({});
  useEffect(() => {
    setWizard(null);
    setResults({});
  }, [project?.id]);

  const setup = useMutation({
    mutationFn: async (t: Tile): Promise<Wizard> => {
      const base = window.location.origin;
      if ((LOCAL_WIZARD_TOOLS as readonly string[]).includes(t.tool)) {
        let key: CreatedKey | null = null;
        if (NEEDS_KEY.has(t.tool)) key = await api<CreatedKey>('POST', '/api/keys', { name: `${t.name} (setup ${new Date().toISOString().slice(0, 10)})`, environment, projectId: project!.id });
        return { tool: t.tool, name: t.name, keyName: key?.record.name ?? null, steps: localWizard(t.tool, base, key?.key ?? null) };
      }
      const w = await api<{ tool: string; name: string; key: { name: string }; steps: WizardStep[] }>('POST', `/api/projects/${project!.id}/integrations/${t.tool}/setup`, { environment });
      return { tool: w.tool, name: w.name, keyName: w.key.name, steps: w.steps };
    },
    onSuccess: (w) => {
      setWizard(w);
      setStepIndex(0);
      void qc.invalidateQueries({ queryKey: ['keys'] });
    },
    onError: (e) => setFailure(describeError(e)),
  });
  // A new wizard, or a new step, takes the focus (keyboard and screen-reader users land on it).
  useEffect(() => {
    if (wizard) document.getElementById('wizard-step')?.focus();
  }, [wizard, stepIndex]);
  const test = useMutation({
    mutationFn: (t: Tile) => api<TestResult>('POST', `/api/projects/${project!.id}/integrations/${t.tool}/test`),
    onSuccess: (r) => {
      setResults((x) => ({ ...x, [r.tool]: r }));
      void qc.invalidateQueries({ queryKey: ['integrations', project?.id] });
      void qc.invalidateQueries({ queryKey: qkeys.projects });
      void qc.invalidateQueries({ queryKey: qkeys.wallet });
    },
    onError: (e) => setFailure(describeError(e)),
  });

  if (projects.isLoading) return <Loading what="your projects" />;
  if (projects.error || !project) return <Notice kind="error">{describeError(projects.error)}</Notice>;
  const step = wizard?.steps[stepIndex];
  return (
    <>
      <h1>Integrations</h1>
      <p className="lead">Every way into Switchboard, for one project at a time. A tile is connected when its tool really called, checked in, or passed its own connection test.</p>
      <div className="filters" aria-label="Project and environment">
        <label>
          Project
          <select value={project.id} onChange={(e) => setParams({ project: e.target.value })}>
            {items.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <ProjectsMore {...projects} />
        <label>
          Environment of new keys
          <select value={environment} onChange={(e) => setEnvironment(e.target.value)}>
            {ENVIRONMENTS.map((e) => (
              <option key={e.id} value={e.id}>
                {e.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Notice kind="error">{failure}</Notice>
      {wizard && step ? (
        <section className="card wizard" aria-labelledby="wizard-title" data-testid="wizard">
          <div className="card-head">
            <h2 id="wizard-title">Set up {wizard.name}</h2>
            <Button variant="link" onPress={() => setWizard(null)}>
              Close
            </Button>
          </div>
          <p className="small muted">
            Step {stepIndex + 1} of {wizard.steps.length}
            {wizard.keyName ? ` · key “${wizard.keyName}” (${environment}) for ${project.name}, shown only in this wizard` : ''}
          </p>
          <h3 id="wizard-step" tabIndex={-1}>
            {stepIndex + 1}. {step.title}
          </h3>
          <p>{step.text}</p>
          {step.snippets.map((sn, i) => (
            <figure key={i} className="snippet">
              <figcaption className="small muted">{sn.client}</figcaption>
              <pre className="mono" tabIndex={0} aria-label={`Snippet for ${sn.client}`}>
                {sn.content}
              </pre>
              <Button variant="secondary" onPress={() => void navigator.clipboard.writeText(sn.content).catch(() => undefined)} aria-label={`Copy snippet for ${sn.client}`}>
                Copy
              </Button>
            </figure>
          ))}
          <div className="filter-actions">
            <Button variant="secondary" isDisabled={stepIndex === 0} onPress={() => setStepIndex((i) => i - 1)}>
              Back
            </Button>
            {stepIndex < wizard.steps.length - 1 ? (
              <Button onPress={() => setStepIndex((i) => i + 1)}>Next</Button>
            ) : (
              <Button onPress={() => setWizard(null)}>Done</Button>
            )}
          </div>
        </section>
      ) : null}
      {tenant.data && !canChange ? (
        <p className="notice notice-info" data-testid="integrations-role-note">
          Setting up and testing a tile needs the admin or owner role; you are a {tenant.data.role} of {tenant.data.name}. You can see every tile&rsquo;s status
          here: ask an admin or owner to set up or test a tool for you.
        </p>
      ) : null}
      {tiles.isLoading ? <Loading what="the tiles" /> : null}
      <div className="tile-grid" data-testid="integration-tiles">
        {(tiles.data?.items ?? []).map((t) => {
          const r = results[t.tool];
          return (
            <Card key={t.tool} title={t.name}>
              <p data-testid={`tile-${t.tool}`}>
                <span className="badge badge-muted">Tier {t.tier}</span> <span className={`badge ${STATUS_CLASS[t.status]}`}>{t.status}</span>
                {t.lastSeenAt ? <span className="small muted"> · last seen {formatWhen(t.lastSeenAt)}</span> : null}
              </p>
              {canChange ? (
                <div className="filter-actions">
                  <Button variant="secondary" onPress={() => setup.mutate(t)} isDisabled={setup.isPending} aria-label={`Set up ${t.name}`}>
                    Set up
                  </Button>
                  <Button variant="secondary" onPress={() => test.mutate(t)} isDisabled={test.isPending} aria-label={`Test ${t.name}`}>
                    Test
                  </Button>
                </div>
              ) : null}
              {r ? (
                <div className={`notice ${r.ok ? 'notice-success' : 'notice-info'}`} role="status" data-testid={`result-${t.tool}`}>
                  {r.ok ? `Passed in ${r.latencyMs} ms. ` : `${r.error ?? 'Not connected.'} `}
                  {r.message}
                </div>
              ) : null}
            </Card>
          );
        })}
      </div>
    </>
  );
}
