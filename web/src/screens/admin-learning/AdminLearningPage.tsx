// /admin/learning (platform admins): minted proposals with their filters (status, priority, source
// signal), and the selected proposal (?proposal=<id>) with its gate history, synthetic batches and
// cases, replay runs and results, and cost breakdown. Read-only: Phase 2 has nothing to approve.
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { usePaged } from '../../api/queries.ts';
import { describeError } from '../../components/errors.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import type { Batch, Cost, Proposal, ProposalDetail, ReplayRun } from './types.ts';
import { DetailView, FiltersView, ProposalsTable, type Filters } from './AdminLearningView.tsx';

export default function AdminLearningPage() {
  const [params, setParams] = useSearchParams();
  const [filters, setFilters] = useState<Filters>({ status: 'minted', priority: '', sourceSignal: '' });
  // D9 pages of 200, then "Load more".
  const list = usePaged<Proposal>(['admin', 'learning', 'proposals', filters], '/api/admin/learning/proposals', { ...filters, limit: '200' }, true, { retry: false });
  const id = params.get('proposal');
  const detail = useQuery({
    queryKey: ['admin', 'learning', 'proposal', id],
    enabled: !!id,
    queryFn: async ({ signal }) => {
      const base = `/api/admin/learning/proposals/${id}`;
      const [p, s, r, c] = await Promise.all([
        get<ProposalDetail>(base, signal),
        get<{ batches: Batch[] }>(`${base}/synthetic`, signal),
        get<{ runs: ReplayRun[] }>(`${base}/replay`, signal),
        get<Cost>(`${base}/cost`, signal),
      ]);
      return { proposal: p, batches: s.batches, runs: r.runs, cost: c };
    },
    retry: false,
  });
  return (
    <div className="stack">
      <h1>Learning plane</h1>
      <p className="muted">
        Candidate routing rules minted from live traffic and validated offline. In Phase 2 every proposal stays minted: nothing here changes live
        routing.
      </p>
      <FiltersView value={filters} onChange={setFilters} />
      {list.isLoading ? (
        <Loading what="proposals" />
      ) : list.error ? (
        <Notice kind="error">{describeError(list.error)}</Notice>
      ) : (
        <ProposalsTable items={list.items} selected={id} onSelect={(p) => setParams({ proposal: p })} more={list.more} />
      )}
      {id ? (
        detail.isLoading ? (
          <Loading what="the proposal" />
        ) : detail.error ? (
          <Notice kind="error">{describeError(detail.error)}</Notice>
        ) : detail.data ? (
          <DetailView {...detail.data} />
        ) : null
      ) : null}
    </div>
  );
}
