// /developer-zone (spec §1): Clients (service keys per environment, D3), Tools and the Model
// Marketplace. The tab is in the address (?tab=), so a link opens the right one.
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, get, qs } from '../../api/client.ts';
import { usePaged, useProjectPages, useTenant } from '../../api/queries.ts';
import type { Catalogue, CreatedKey, KeyRecord, ToolItem } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import type { FieldErrors } from '../../components/fns/form.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { DevTabs, KeysByEnvironment, Marketplace, NewKeyCard, ShownOnce, ToolsList, type ModelFilters, type NewKeyForm } from './DeveloperZoneView.tsx';
import '../workspaces.css';

const KEYS = ['keys'] as const;

/** The current time, ticking every second while mounted (the rotation countdowns). */
function useNow() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}

export default function DeveloperZonePage() {
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'clients';
  const tenant = useTenant();
  const canEdit = !tenant.data || ['owner', 'admin'].includes(tenant.data.role);
  // Projects and keys in D9 pages of 200, each with "Load more".
  const projects = useProjectPages();
  const items = projects.items;
  const keys = usePaged<KeyRecord>(KEYS, '/api/keys', { limit: '200' });
  const tools = useQuery({ queryKey: ['tools'], queryFn: ({ signal }) => get<{ items: ToolItem[] }>('/api/tools', signal), enabled: tab === 'tools', staleTime: 300_000 });
  const [filters, setFilters] = useState<ModelFilters>({ provider: '', modelClass: '', capability: '' });
  const [showIds, setShowIds] = useState(false);
  const models = useQuery({ queryKey: ['catalogue', filters], queryFn: ({ signal }) => get<Catalogue>(`/api/models/catalogue${qs({ ...filters })}`, signal), enabled: tab === 'models', placeholderData: (prev) => prev });
  const now = useNow();

  const [form, setForm] = useState<NewKeyForm>({ name: '', environment: 'dev', projectId: '' });
  useEffect(() => {
    if (!form.projectId && items.length) setForm((f) => ({ ...f, projectId: (items.find((p) => p.isDefault) ?? items[0]).id }));
  }, [items, form.projectId]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const [shown, setShown] = useState<{ title: string; secret: string } | null>(null);
  const [copied, setCopied] = useState('');
  const [confirmRevoke, setConfirmRevoke] = useState<string | null>(null);
  const reveal = (title: string, r: CreatedKey) => {
    setCopied('');
    setShown({ title, secret: r.key });
    void qc.invalidateQueries({ queryKey: KEYS });
  };
  const create = useMutation({
    mutationFn: (body: unknown) => api<CreatedKey>('POST', '/api/keys', body),
    onSuccess: (r) => {
      setForm((f) => ({ ...f, name: '' }));
      reveal(`Key “${r.record.name}” created.`, r);
    },
    onError: (e) => setFailure(describeError(e)),
  });
  const rotate = useMutation({
    mutationFn: (k: KeyRecord) => api<CreatedKey>('POST', `/api/keys/${k.id}/rotate`),
    onSuccess: (r) => reveal(`Key “${r.record.name}” rotated: the old one keeps working for 24 hours.`, r),
    onError: (e) => setFailure(describeError(e)),
  });
  const revoke = useMutation({
    mutationFn: (k: KeyRecord) => api<KeyRecord>('DELETE', `/api/keys/${k.id}`),
    onSuccess: () => {
      setConfirmRevoke(null);
      void qc.invalidateQueries({ queryKey: KEYS });
    },
    onError: (e) => setFailure(describeError(e)),
  });
  const submit = () => {
    setFailure('');
    if (!form.name.trim()) return setErrors({ name: 'Give the key a name, e.g. where it will be used.' });
    setErrors({});
    create.mutate({ name: form.name.trim(), environment: form.environment, projectId: form.projectId });
  };
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied('Copied.');
    } catch {
      setCopied('The browser did not allow copying: select the key and press Ctrl+C (⌘C on a Mac).');
    }
  };

  if (keys.isLoading || projects.isLoading) return <Loading what="the developer zone" />;
  const listFailure = keys.error ?? projects.error;
  return (
    <>
      <h1>Developer zone</h1>
      <DevTabs
        tab={tab}
        onTab={(t) => setParams(t === 'clients' ? {} : { tab: t })}
        clients={
          <>
            {listFailure ? <Notice kind="error">{describeError(listFailure)}</Notice> : null}
            {shown ? <ShownOnce title={shown.title} secret={shown.secret} copied={copied} onCopy={() => void copy()} onDone={() => setShown(null)} /> : null}
            <NewKeyCard form={form} projects={items} projectsMore={projects.more} projectsPaged={projects.pagesLoaded > 1} onChange={setForm} errors={errors} failure={failure} busy={create.isPending} onCreate={submit} canEdit={canEdit} />
            <KeysByEnvironment
              keys={keys.items}
              more={keys.more}
              projects={items}
              projectsComplete={!projects.hasMore}
              now={now}
              canEdit={canEdit}
              confirmRevoke={confirmRevoke}
              onRotate={(k) => {
                setFailure('');
                rotate.mutate(k);
              }}
              onAskRevoke={(k) => setConfirmRevoke(k?.id ?? null)}
              onRevoke={(k) => revoke.mutate(k)}
              busy={rotate.isPending || revoke.isPending}
            />
          </>
        }
        tools={tools.error ? <Notice kind="error">{describeError(tools.error)}</Notice> : tools.data ? <ToolsList tools={tools.data.items} /> : <Loading what="the tools" />}
        models={models.error ? <Notice kind="error">{describeError(models.error)}</Notice> : <Marketplace data={models.data} filters={filters} onFilters={setFilters} showIds={showIds} onShowIds={setShowIds} />}
      />
    </>
  );
}
