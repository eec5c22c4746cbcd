// /admin/learning/budget (platform admins): the learning plane's budget per category and month
// with spent and available, the edit form for the current month (PATCH, audited), and the trail of
// changes with their authors.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { usePaged } from '../../api/queries.ts';
import { describeError } from '../../components/errors.ts';
import { usdToMicros } from '../../components/fns/money.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { BudgetView, type BudgetData, type BudgetRow } from './AdminLearningBudgetView.tsx';

const KEY = ['admin', 'learning', 'budget'];

export default function AdminLearningBudgetPage() {
  const qc = useQueryClient();
  // D9 pages of 200 budget rows, then "Load more"; the change trail comes with the first page.
  const data = usePaged<BudgetRow, Pick<BudgetData, 'changes'>>(KEY, '/api/admin/learning/budget', { limit: '200' }, true, { retry: false });
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const save = useMutation({
    mutationFn: ({ id, micros }: { id: string; micros: string }) => api('PATCH', `/api/admin/learning/budget/${id}`, { budgetMicros: micros }),
    onSuccess: () => {
      setError('');
      setDrafts({});
      return qc.invalidateQueries({ queryKey: KEY });
    },
    onError: (e) => setError(describeError(e)),
  });
  if (data.isLoading) return <Loading what="the learning budget" />;
  if (data.error) return <Notice kind="error">{describeError(data.error)}</Notice>;
  return (
    <BudgetView
      data={{ items: data.items, changes: data.first?.changes ?? [] }}
      more={data.more}
      currentWindow={new Date().toISOString().slice(0, 7)}
      drafts={drafts}
      onDraft={(id, v) => setDrafts((d) => ({ ...d, [id]: v }))}
      onSave={(id) => {
        // Checked here, before the request: the amount is typed in dollars and sent as integer micros.
        const micros = usdToMicros(drafts[id] ?? '');
        if (micros === null) {
          save.reset();
          setError('Enter an amount in US dollars, e.g. 7.50.');
          return;
        }
        save.mutate({ id, micros });
      }}
      saving={save.isPending}
      error={error}
      saved={save.isSuccess}
    />
  );
}
