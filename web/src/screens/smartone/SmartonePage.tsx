// /smartone (spec §1): the workspace switcher and the chosen project's budget, quality floor,
// benchmark override, stage and live, filterable activity. The chosen project is in the address
// (?project=<id>), so a link or a reload keeps it.
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { createProjectBody, patchProjectBody } from '../../../../src/http/api/projects/schemas.ts';
import { api, get } from '../../api/client.ts';
import { useProjectEvents } from '../../api/events.ts';
import { keys, useBaseline, usePaged, useProjectPages, useTenant } from '../../api/queries.ts';
import type { ActivityItem, Project } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { dollarsField, microsToDollars } from '../billing/fns/amounts.ts';
import { usdToMicros } from '../../components/fns/money.ts';
import { ActivityCard, DeleteCard, SettingsCard, Switcher, type SettingsForm } from './SmartoneView.tsx';
import '../workspaces.css';

const LIVE_EVENTS = new Set(['llm.call', 'routing.escalated', 'stage.changed', 'budget.exhausted', 'connector.connected', 'connector.disconnected']);

const formOf = (p: Project): SettingsForm => ({
  name: p.name,
  budget: p.monthlyBudgetMicros === null ? '' : microsToDollars(p.monthlyBudgetMicros),
  floor: String(p.qualityFloor),
  benchmark: p.benchmarkOverride ?? '',
});

export default function SmartonePage() {
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  // D9 pages of 200 projects, then "Load more" in the switcher.
  const projects = useProjectPages();
  const tenant = useTenant();
  const baseline = useBaseline();
  const canEdit = !tenant.data || ['owner', 'admin'].includes(tenant.data.role);
  const loaded = projects.items;
  const wanted = params.get('project');
  // A project in the address but not in the pages loaded so far (a link, or a reload after "Load
  // more") is read on its own and listed with them, so the address keeps choosing it.
  const missing = !!wanted && !projects.isLoading && !loaded.some((p) => p.id === wanted);
  const single = useQuery({ queryKey: [...keys.projects, 'one', wanted], queryFn: ({ signal }) => get<Project>(`/api/projects/${wanted}`, signal), enabled: missing, retry: false });
  const items = missing && single.data ? [...loaded, single.data] : loaded;
  const project = items.find((p) => p.id === wanted) ?? items.find((p) => p.isDefault) ?? items[0];
  const select = (id: string) => setParams({ project: id });
  // Stages move with calls made elsewhere: read the projects afresh on arrival.
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: keys.projects });
  }, [qc]);

  // Create
  const [newName, setNewName] = useState('');
  const [createError, setCreateError] = useState<string | undefined>();
  const [switchFailure, setSwitchFailure] = useState('');
  const create = useMutation({
    mutationFn: (body: unknown) => api<Project>('POST', '/api/projects', body),
    onSuccess: async (p) => {
      setNewName('');
      await qc.invalidateQueries({ queryKey: keys.projects });
      select(p.id);
      setSaved(`Project ${p.name} created. It starts in onboarding: set up a tool on Integrations.`);
    },
    onError: (e) => setSwitchFailure(describeError(e)),
  });
  const submitCreate = () => {
    setSwitchFailure('');
    const v = validate(createProjectBody, { name: newName });
    if (!v.ok) return setCreateError(v.errors.name);
    setCreateError(undefined);
    create.mutate({ name: newName.trim() });
  };

  // Settings
  const [form, setForm] = useState<SettingsForm>({ name: '', budget: '', floor: '0.6', benchmark: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const [saved, setSaved] = useState('');
  const loadedFor = useRef<string | null>(null);
  useEffect(() => {
    if (project && loadedFor.current !== project.id) {
      loadedFor.current = project.id;
      setForm(formOf(project));
      setErrors({});
      setFailure('');
      setConfirming(false);
    }
  }, [project]);
  const save = useMutation({
    mutationFn: (v: { id: string; body: unknown }) => api<Project>('PATCH', `/api/projects/${v.id}`, v.body),
    onSuccess: (p) => {
      void qc.invalidateQueries({ queryKey: keys.projects });
      setForm(formOf(p));
      setSaved(`Settings of ${p.name} saved. They apply to the next call.`);
    },
    onError: (e) => setFailure(describeError(e)),
  });
  const submitSave = () => {
    if (!project) return;
    setFailure('');
    setSaved('');
    const body = {
      name: form.name,
      monthlyBudgetMicros: form.budget.trim() === '' ? null : dollarsField(form.budget),
      qualityFloor: Number(form.floor),
      benchmarkOverride: form.benchmark === '' ? null : form.benchmark,
    };
    if (form.budget.trim() !== '' && usdToMicros(form.budget) === null) return setErrors({ monthlyBudgetMicros: 'Enter an amount in US dollars, like 25 or 12.50, or leave it empty for no limit.' });
    const v = validate(patchProjectBody, body);
    if (!v.ok) return setErrors(v.errors);
    setErrors({});
    save.mutate({ id: project.id, body: { ...body, name: form.name.trim() } });
  };

  // Delete
  const [confirming, setConfirming] = useState(false);
  const [deleteFailure, setDeleteFailure] = useState('');
  const remove = useMutation({
    mutationFn: (p: Project) => api('DELETE', `/api/projects/${p.id}`).then(() => p),
    onSuccess: async (p) => {
      setConfirming(false);
      await qc.invalidateQueries({ queryKey: keys.projects });
      setParams({});
      setSaved(`Project ${p.name} deleted; its keys no longer work.`);
    },
    onError: (e) => setDeleteFailure(describeError(e)),
  });

  // Activity, filtered and live
  const [channel, setChannel] = useState('');
  const [search, setSearch] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setDebounced(search.trim()), 300);
    return () => clearTimeout(t);
  }, [search]);
  const filters = { projectId: project?.id, channel: channel || undefined, search: debounced || undefined, limit: '50' };
  const activity = usePaged<ActivityItem>([...keys.activity(filters), 'paged'], '/api/tenant/insights/activity', filters, !!project);
  const [live, setLive] = useState(false);
  useProjectEvents(
    project ? [project.id] : [],
    (f) => {
      if (!LIVE_EVENTS.has(f.type)) return;
      void qc.invalidateQueries({ queryKey: ['insights', 'activity'] });
      if (f.type === 'stage.changed' || f.type.startsWith('connector.')) void qc.invalidateQueries({ queryKey: keys.projects });
    },
    () => setLive(true),
  );
  useEffect(() => setLive(false), [project?.id]);

  if (projects.isLoading || (missing && single.isLoading)) return <Loading what="your projects" />;
  if (projects.error || !project) return <Notice kind="error">{describeError(projects.error)}</Notice>;
  return (
    <>
      <h1>SmartOne</h1>
      <p className="lead">Each project has its own budget, quality floor, benchmark and activity, and shares the team's wallet.</p>
      <Switcher
        projects={items}
        more={projects.more}
        shown={loaded.length}
        paged={projects.pagesLoaded > 1}
        selected={project.id}
        onSelect={select}
        canEdit={canEdit}
        newName={newName}
        onNewName={setNewName}
        createError={createError}
        failure={switchFailure}
        busy={create.isPending}
        onCreate={submitCreate}
      />
      <SettingsCard
        project={project}
        tenantBrand={baseline.data?.brand ?? null}
        form={form}
        onChange={(f) => {
          setForm(f);
          setErrors({});
        }}
        errors={errors}
        failure={failure}
        saved={saved}
        busy={save.isPending}
        canEdit={canEdit}
        onSave={submitSave}
      />
      <ActivityCard items={activity.items} loading={activity.isLoading} more={{ hasMore: activity.hasMore, loading: activity.loadingMore, onMore: activity.loadMore }} live={live} channel={channel} search={search} onChannel={setChannel} onSearch={setSearch} />
      {canEdit ? (
        <DeleteCard
          project={project}
          confirming={confirming}
          onAsk={() => {
            setDeleteFailure('');
            setConfirming(true);
          }}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate(project)}
          busy={remove.isPending}
          failure={deleteFailure}
        />
      ) : null}
    </>
  );
}
