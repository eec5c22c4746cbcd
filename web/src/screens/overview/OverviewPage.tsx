// /overview: tiles, chart and feed from the insights endpoints; the event streams of the tenant's
// projects refresh them as calls and top-ups happen, without a reload (D13).
import { useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { keys, useOverview, useProjects, useSavings } from '../../api/queries.ts';
import { useProjectEvents } from '../../api/events.ts';
import { describeError } from '../../components/errors.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { OverviewView } from './OverviewView.tsx';
import { REFRESHING_EVENTS } from './fns/feed.ts';

/** Streams followed at once; a tenant with more projects still sees them on the next refresh. */
const MAX_STREAMS = 20;

export default function OverviewPage() {
  const [window, setWindow] = useState('30');
  const overview = useOverview();
  const savings = useSavings(window);
  const projects = useProjects();
  const qc = useQueryClient();
  const [live, setLive] = useState(false);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ids = useMemo(() => (projects.data?.items ?? []).slice(0, MAX_STREAMS).map((p) => p.id), [projects.data]);

  useProjectEvents(
    ids,
    (frame) => {
      if (!REFRESHING_EVENTS.has(frame.type)) return;
      // A burst of calls refreshes once.
      if (pending.current) return;
      pending.current = setTimeout(() => {
        pending.current = null;
        void qc.invalidateQueries({ queryKey: ['insights'] });
        void qc.invalidateQueries({ queryKey: keys.wallet });
      }, 300);
    },
    () => setLive(true),
  );

  if (overview.isLoading) return <Loading what="your overview" />;
  if (overview.error || !overview.data) return <Notice kind="error">{describeError(overview.error)}</Notice>;
  return <OverviewView overview={overview.data} savings={savings.data} window={window} onWindow={setWindow} live={live} />;
}
