// /analytics: the four tabs (the chosen one in the URL, so it survives a reload and can be
// linked) and the free-text search over activity rows.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useActivity, useAudit, useSavings, useUsage } from '../../api/queries.ts';
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
  const search = useActivity({ search: q, limit: '50' }, q.length > 0);

  const err = usage.error ?? savings.error ?? audit.error;
  return (
    <>
      <h1>Analytics</h1>
      <SearchBox value={text} onChange={setText} />
      {q ? <SearchResults q={q} data={search.data} /> : null}
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
