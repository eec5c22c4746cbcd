// /admin (platform admins, D13): the admin console's home. One card per admin screen with the
// figure that says whether to open it: the webhook deliveries that failed in the last 24 hours,
// and the learning plane's proposals. The API refuses everyone but platform admins; they see why.
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { describeError } from '../../components/errors.ts';
import { Card, Loading, Notice } from '../../components/ui.tsx';
import type { Summary } from '../admin-webhooks/AdminWebhooksView.tsx';

export default function AdminHomePage() {
  const hooks = useQuery({ queryKey: ['admin', 'webhooks', 'summary'], queryFn: ({ signal }) => get<Summary>('/api/admin/webhooks/summary', signal), retry: false });
  const proposals = useQuery({
    queryKey: ['admin', 'learning', 'proposals', 'home'],
    queryFn: ({ signal }) => get<{ items: unknown[]; nextCursor: string | null }>('/api/admin/learning/proposals?limit=200', signal),
    retry: false,
  });
  const error = hooks.error ?? proposals.error;
  return (
    <div className="stack">
      <h1>Admin console</h1>
      <p className="muted">Platform administration across every tenant. Tenants manage their own workspaces from their own screens.</p>
      {error ? <Notice kind="error">{describeError(error)}</Notice> : null}
      <div className="admin-cards">
        <Card title="Webhook deliveries" footer={<Link to="/admin/webhooks">Open webhook deliveries</Link>}>
          <p className="muted">Deliveries to every tenant’s webhooks, their attempts and the tenants whose deliveries fail most.</p>
          {hooks.isLoading ? (
            <Loading what="the delivery summary" />
          ) : hooks.data ? (
            <p data-testid="admin-home-failed">
              <strong>{hooks.data.byStatus.failed}</strong> failed, {hooks.data.byStatus.pending} pending and {hooks.data.byStatus.succeeded} delivered in the last 24 hours
            </p>
          ) : null}
        </Card>
        <Card
          title="Learning plane"
          footer={
            <>
              <Link to="/admin/learning">Open the learning plane</Link> · <Link to="/admin/learning/budget">Learning-plane budget</Link>
            </>
          }
        >
          <p className="muted">Proposals the learning plane minted, their validation gates and costs, and its monthly budget.</p>
          {proposals.isLoading ? (
            <Loading what="the proposals" />
          ) : proposals.data ? (
            <p data-testid="admin-home-proposals">
              <strong>
                {proposals.data.items.length}
                {proposals.data.nextCursor ? '+' : ''}
              </strong>{' '}
              proposal{proposals.data.items.length === 1 ? '' : 's'}
            </p>
          ) : null}
        </Card>
      </div>
    </div>
  );
}
