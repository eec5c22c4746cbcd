// /summary: the numbers the digest e-mail carries, for a chosen period in the user's time zone.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { useSummary } from '../../api/queries.ts';
import { describeError } from '../../components/errors.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { DigestPreview, Movers, PeriodPicker, SummaryNumbers, type DigestPreviewData } from './SummaryView.tsx';

export default function SummaryPage() {
  const [period, setPeriod] = useState('today');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [custom, setCustom] = useState<{ from: string; to: string } | null>(null);
  const params = period === 'custom' ? { period, from: custom?.from, to: custom?.to } : { period };
  const ready = period !== 'custom' || !!custom;
  const summary = useSummary(params, ready);
  const preview = useQuery({
    queryKey: ['insights', 'digest-preview'],
    queryFn: ({ signal }) => get<DigestPreviewData>('/api/tenant/insights/summary/digest-preview', signal),
  });
  return (
    <>
      <h1>Summary</h1>
      <PeriodPicker period={period} onPeriod={setPeriod} from={from} to={to} onFrom={setFrom} onTo={setTo} onApplyCustom={() => setCustom({ from, to })} />
      {!ready ? <p>Choose the first and last day, then Show.</p> : null}
      {summary.error ? <Notice kind="error">{describeError(summary.error)}</Notice> : null}
      {ready && summary.isLoading ? <Loading what="the summary" /> : null}
      {summary.data ? (
        <>
          <SummaryNumbers s={summary.data} />
          <Movers s={summary.data} />
          <DigestPreview preview={preview.data} error={preview.error ? describeError(preview.error) : ''} />
        </>
      ) : null}
    </>
  );
}
