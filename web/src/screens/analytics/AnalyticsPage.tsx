// /analytics: the four tabs (the chosen one in the URL, so it survives a reload and can be
// linked) and the free-text search over activity rows.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { keys, useActivity, useAudit, usePaged, useSavings, useUsage } from '../../api/queries.ts';
import type { ActivityItem } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { AnalyticsTabs, AuditTab, LedgerTab, SavingsTab, SearchBox, SearchResults, UsageTab } from './AnalyticsView.tsx';

const TABS = ['usage', 'savings', 'ledger', 'audit'];

export default function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState(TABS.includes(params.get('tab') ?? '') ? params.get('tab')! : 'usage');
  const [text, setText] = useState(params.get('q') ?? '');
  const [q, setQ] = useState(text.trim());
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), 300);
    return () => clearTimeout(t);
  }, [text]);
  const [window, setWindow] = useState('30');

  const usage = useUsage();
  const savings = useSavings(window);
  const ledger = useActivity({ limit: '50' });
  const audit = useAudit();
  // The search results page like the API (D9): 50, then "Load more". The Ledger tab stays a "recent"
  // cut with its link to the full ledger (docs/decisions.md, "Logged defects (session 8)").
  const searchParams = { search: q, limit: '50' };
  const search = usePaged<ActivityItem>([...keys.activity(searchParams), 'paged'], '/api/tenant/insights/activity', searchParams, q.length > 0);

  const err = usage.error ?? savings.error ?? audit.error;
  return (
    <>
      <h1>Analytics</h1>
      <SearchBox value={text} onChange={setText} />
      {q ? <SearchResults q={q} items={search.isLoading ? undefined : search.items} more={search.more} /> : null}
      {err ? <Notice kind="error">{describeError(err)}</Notice> : null}
      <AnalyticsTabs
        tab={tab}
        onTab={(t) => {
          setTab(t);
          const next = new URLSearchParams(params);
          next.set('tab', t);
          setParams(next, { replace: true });
        }}
        usage={usage.data ? <UsageTab u={usage.data} /> : <Loading what="usage" />}
        savings={<SavingsTab s={savings.data} window={window} onWindow={setWindow} />}
        ledger={<LedgerTab a={ledger.data} />}
        audit={<AuditTab a={audit.data} />}
      />
    </>
  );
}
