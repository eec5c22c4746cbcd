// One tenant webhook's recent deliveries with their attempts (GET /api/webhooks/:id/deliveries,
// then each delivery's detail for its attempt log), replayable by owners and admins (D10a).
import { useQueries, useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import { DeliveryList, type DeliveryRow } from './NotificationsView.tsx';

export const DELIVERIES_SHOWN = 10;

export function WebhookDeliveries(p: { webhookId: string; url: string; canReplay: boolean; onReplay: (d: DeliveryRow) => void; busy: boolean }) {
  const list = useQuery({
    queryKey: ['webhooks', p.webhookId, 'deliveries'],
    queryFn: ({ signal }) => get<Page<DeliveryRow>>(`/api/webhooks/${p.webhookId}/deliveries?limit=${DELIVERIES_SHOWN}`, signal),
    refetchInterval: 5_000,
  });
  const details = useQueries({
    queries: (list.data?.items ?? []).map((d) => ({
      queryKey: ['webhooks', 'delivery', d.id, d.attempts, d.status],
      queryFn: ({ signal }: { signal: AbortSignal }) => get<DeliveryRow>(`/api/webhooks/deliveries/${d.id}`, signal),
    })),
  });
  const rows = (list.data?.items ?? []).map((d, i) => details[i]?.data ?? { ...d, attemptLog: [] });
  return <DeliveryList label={`Deliveries to ${p.url}`} deliveries={rows} canReplay={p.canReplay} onReplay={p.onReplay} busy={p.busy} />;
}
