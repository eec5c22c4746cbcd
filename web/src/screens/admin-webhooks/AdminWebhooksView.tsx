// /admin/webhooks, pure: the 24-hour summary, the filters, the deliveries table and one delivery's
// attempt log.
import { Button, Card, LoadMore } from '../../components/ui.tsx';

export type Status = 'pending' | 'succeeded' | 'failed';
export interface Delivery {
  id: string;
  tenantId: string;
  tenantName: string;
  webhookId: string;
  webhookUrl: string | null;
  eventType: string;
  status: Status;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  completedAt: string | null;
}
export interface Attempt {
  attempt: number;
  trigger: 'scheduled' | 'replay';
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  succeeded: boolean;
}
export interface DeliveryDetail extends Delivery {
  body: string;
  attemptLog: Attempt[];
}
export interface Summary {
  since: string;
  byStatus: Record<Status, number>;
  failingTenants: Array<{ tenantId: string; tenantName: string; failed: number; lastFailedAt: string }>;
}
export interface Filters {
  status: '' | Status;
  tenantId: string;
}

const when = (iso: string | null) => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—');
const STATUS_LABEL: Record<Status, string> = { pending: 'Retrying', succeeded: 'Delivered', failed: 'Failed' };

export function SummaryView({ s, onTenant }: { s: Summary; onTenant: (tenantId: string) => void }) {
  return (
    <>
      <div className="tiles" role="group" aria-label="Last 24 hours">
        {(['succeeded', 'pending', 'failed'] as const).map((k) => (
          <div className="tile" key={k} data-testid={`tile-${k}`}>
            <div className="tile-label">{STATUS_LABEL[k]} (24 h)</div>
            <div className="tile-value">{s.byStatus[k].toLocaleString('en-US')}</div>
          </div>
        ))}
      </div>
      <Card title="Tenants with failed deliveries (24 h)">
        {s.failingTenants.length === 0 ? (
          <p className="muted">No delivery failed in the last 24 hours.</p>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Tenants with failed deliveries">
              <thead>
                <tr>
                  <th>Tenant</th>
                  <th className="num">Failed</th>
                  <th>Last failure</th>
                </tr>
              </thead>
              <tbody>
                {s.failingTenants.map((t) => (
                  <tr key={t.tenantId}>
                    <td>
                      <Button variant="link" onPress={() => onTenant(t.tenantId)}>
                        {t.tenantName}
                      </Button>
                    </td>
                    <td className="num">{t.failed}</td>
                    <td>{when(t.lastFailedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}

export function FiltersView({ value, onChange, tenants }: { value: Filters; onChange: (f: Filters) => void; tenants: Summary['failingTenants'] }) {
  const known = tenants.some((t) => t.tenantId === value.tenantId);
  return (
    <form className="filters" aria-label="Filter deliveries" onSubmit={(e) => e.preventDefault()}>
      <label>
        Status
        <select value={value.status} onChange={(e) => onChange({ ...value, status: e.target.value as Filters['status'] })}>
          <option value="">All</option>
          <option value="succeeded">Delivered</option>
          <option value="pending">Retrying</option>
          <option value="failed">Failed</option>
        </select>
      </label>
      <label>
        Tenant
        <select value={value.tenantId} onChange={(e) => onChange({ ...value, tenantId: e.target.value })}>
          <option value="">All tenants</option>
          {tenants.map((t) => (
            <option key={t.tenantId} value={t.tenantId}>
              {t.tenantName}
            </option>
          ))}
          {value.tenantId && !known ? <option value={value.tenantId}>{value.tenantId}</option> : null}
        </select>
      </label>
    </form>
  );
}

export function DeliveriesTable({ items, selected, onSelect, more }: { items: Delivery[]; selected: string | null; onSelect: (id: string) => void; more: { hasMore: boolean; loading: boolean; onMore: () => void } }) {
  if (items.length === 0) return <p className="muted">No delivery matches these filters.</p>;
  return (
    <Card title={`Deliveries (${items.length}${more.hasMore ? ' shown' : ''})`}>
      <div className="table-wrap">
        <table className="table" aria-label="Deliveries">
          <thead>
            <tr>
              <th>Created</th>
              <th>Tenant</th>
              <th>Event</th>
              <th>Target</th>
              <th>Status</th>
              <th className="num">Attempts</th>
              <th>Last answer</th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <tr key={d.id} aria-current={d.id === selected ? 'true' : undefined}>
                <td>
                  <Button variant="link" onPress={() => onSelect(d.id)} aria-label={`Delivery ${d.eventType} of ${d.tenantName} at ${when(d.createdAt)}`}>
                    {when(d.createdAt)}
                  </Button>
                </td>
                <td>{d.tenantName}</td>
                <td>{d.eventType}</td>
                <td className="mono">{d.webhookUrl ?? '(webhook deleted)'}</td>
                <td>{STATUS_LABEL[d.status]}</td>
                <td className="num">{d.attempts}</td>
                <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <LoadMore shown={items.length} what="deliveries" {...more} />
    </Card>
  );
}

export function DeliveryDetailView({ d }: { d: DeliveryDetail }) {
  return (
    <Card title={`${d.eventType} for ${d.tenantName}`}>
      <dl className="facts">
        <dt>Status</dt>
        <dd>{STATUS_LABEL[d.status]}</dd>
        <dt>Target</dt>
        <dd className="mono">{d.webhookUrl ?? '(webhook deleted)'}</dd>
        <dt>Next attempt</dt>
        <dd>{when(d.nextAttemptAt)}</dd>
        <dt>Completed</dt>
        <dd>{when(d.completedAt)}</dd>
      </dl>
      <div className="table-wrap">
        <table className="table" aria-label="Attempts">
          <thead>
            <tr>
              <th className="num">Attempt</th>
              <th>Trigger</th>
              <th>Started</th>
              <th className="num">Duration</th>
              <th>Answer</th>
              <th>Response</th>
            </tr>
          </thead>
          <tbody>
            {d.attemptLog.map((a) => (
              <tr key={a.attempt}>
                <td className="num">{a.attempt}</td>
                <td>{a.trigger}</td>
                <td>{when(a.startedAt)}</td>
                <td className="num">{a.durationMs} ms</td>
                <td>{a.succeeded ? `Delivered (${a.statusCode})` : (a.statusCode ?? a.error ?? 'failed')}</td>
                <td className="mono">{a.responseExcerpt ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <details>
        <summary>Payload</summary>
        <pre className="mono">{d.body}</pre>
      </details>
    </Card>
  );
}
