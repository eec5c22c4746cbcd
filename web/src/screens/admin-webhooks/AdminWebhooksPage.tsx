// /admin/webhooks (platform admins, spec §6): webhook deliveries across tenants, the last 24 hours
// by status, the tenants whose deliveries fail most, and one delivery (?delivery=<id>) with every
// attempt's status code, error, duration and response excerpt. Read-only: a tenant's own admins
// replay their deliveries from /notifications (D10a).
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { usePaged } from '../../api/queries.ts';
import { describeError } from '../../components/errors.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { DeliveriesTable, DeliveryDetailView, FiltersView, SummaryView, type Delivery, type DeliveryDetail, type Filters, type Summary } from './AdminWebhooksView.tsx';

export default function AdminWebhooksPage() {
  const [params, setParams] = useSearchParams();
  const [filters, setFilters] = useState<Filters>({ status: '', tenantId: '' });
  const summary = useQuery({
    queryKey: ['admin', 'webhooks', 'summary'],
    queryFn: ({ signal }) => get<Summary>('/api/admin/webhooks/summary', signal),
    retry: false,
  });
  // D9 pages of 100, then "Load more".
  const list = usePaged<Delivery>(['admin', 'webhooks', 'deliveries', filters], '/api/admin/webhooks/deliveries', { ...filters, limit: '100' }, true, { retry: false });
  const id = params.get('delivery');
  const detail = useQuery({
    queryKey: ['admin', 'webhooks', 'delivery', id],
    enabled: !!id,
    queryFn: ({ signal }) => get<DeliveryDetail>(`/api/admin/webhooks/deliveries/${id}`, signal),
    retry: false,
  });
  const error = summary.error ?? list.error;
  return (
    <div className="stack">
      <h1>Webhook deliveries</h1>
      <p className="muted">Every tenant’s webhook deliveries and their attempts. Tenants replay their own deliveries from their notification settings.</p>
      {error ? <Notice kind="error">{describeError(error)}</Notice> : null}
      {summary.data ? <SummaryView s={summary.data} onTenant={(tenantId) => setFilters({ status: 'failed', tenantId })} /> : summary.isLoading ? <Loading what="the summary" /> : null}
      <FiltersView value={filters} onChange={setFilters} tenants={summary.data?.failingTenants ?? []} />
      {list.isLoading ? <Loading what="deliveries" /> : list.first ? <DeliveriesTable items={list.items} selected={id} onSelect={(d) => setParams({ delivery: d })} more={list.more} /> : null}
      {id ? (
        detail.isLoading ? (
          <Loading what="the delivery" />
        ) : detail.error ? (
          <Notice kind="error">{describeError(detail.error)}</Notice>
        ) : detail.data ? (
          <DeliveryDetailView d={detail.data} />
        ) : null
      ) : null}
    </div>
  );
}
