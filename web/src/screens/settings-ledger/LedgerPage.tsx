// /settings/ledger: the paginated, filterable ledger (D9) with the server-computed running balance,
// and the verify-chain button (D8: HMAC recomputed server-side).
import { useMemo, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { useLedger, useProjectChoices, useProjectNames } from '../../api/queries.ts';
import type { Verdict } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { Filters, LedgerTable, LedgerView, VerifyResult } from './LedgerView.tsx';
import { EMPTY_FILTERS, toQuery, type LedgerFilterForm } from './fns/filters.ts';

const PAGE = 25;

export default function LedgerPage() {
  const [form, setForm] = useState<LedgerFilterForm>(EMPTY_FILTERS);
  const [applied, setApplied] = useState<LedgerFilterForm>(EMPTY_FILTERS);
  // Cursors of the pages seen so far: [undefined (first), cursor of page 2, ...].
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const ledger = useLedger({ ...toQuery(applied), limit: String(PAGE), cursor });
  // The filter's choices: D9 pages of 200, the default first, "Load more" under the select.
  const projects = useProjectChoices(form.projectId || null);
  // The rows name projects that may be on no page loaded yet: those are read one by one.
  const named = useMemo(() => (ledger.data?.items ?? []).flatMap((e) => (e.projectId ? [e.projectId] : [])), [ledger.data]);
  const names = useProjectNames(projects.items, named);
  const verify = useMutation({ mutationFn: () => get<Verdict>('/api/tenant/ledger/verify') });

  const apply = (f: LedgerFilterForm) => {
    setApplied(f);
    setCursors([undefined]);
  };

  return (
    <LedgerView
      filters={
        <Filters
          form={form}
          projects={projects.items}
          more={projects}
          onChange={setForm}
          onApply={() => apply(form)}
          onReset={() => {
            setForm(EMPTY_FILTERS);
            apply(EMPTY_FILTERS);
          }}
        />
      }
      table={
        ledger.isLoading ? (
          <Loading what="the ledger" />
        ) : ledger.error ? (
          <Notice kind="error">{describeError(ledger.error)}</Notice>
        ) : (
          <LedgerTable items={ledger.data?.items ?? []} projects={names} broken={verify.data?.firstBroken ?? null} />
        )
      }
      page={cursors.length}
      hasPrev={cursors.length > 1}
      hasNext={!!ledger.data?.nextCursor}
      onPrev={() => setCursors((c) => c.slice(0, -1))}
      onNext={() => ledger.data?.nextCursor && setCursors((c) => [...c, ledger.data!.nextCursor!])}
      onVerify={() => verify.mutate()}
      verifying={verify.isPending}
      verify={<VerifyResult verdict={verify.data} error={verify.error ? describeError(verify.error) : ''} />}
    />
  );
}
