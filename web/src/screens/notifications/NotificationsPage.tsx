// /notifications (spec §1, issue 16 item 3): balance and runway thresholds, the escalation alert,
// digest cadence, channel and optional alert webhook (secret shown once), a test alert that takes
// the real alert path, and the delivery logs (own alert webhook; the team's webhooks) with each
// delivery's attempts and a replay button (D10a).
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { notificationPatch, type notificationSettings, type testAlertResult } from '../../../../src/http/api/users/schemas.ts';
import type { webhook } from '../../../../src/http/api/webhooks/schemas.ts';
import { api, get } from '../../api/client.ts';
import { useTenant } from '../../api/queries.ts';
import type { Page } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Button, Card, Loading, Notice } from '../../components/ui.tsx';
import { patchOf, valuesOf, type NotificationValues } from './fns/settings.ts';
import { DeliveryList, SettingsCard, type DeliveryRow } from './NotificationsView.tsx';
import { WebhookDeliveries } from './WebhookDeliveries.tsx';
import '../account/settings.css';

type Settings = z.output<typeof notificationSettings>;
type Webhook = z.output<typeof webhook>;
const nk = { settings: ['notifications'] as const, mine: ['notifications', 'deliveries'] as const, hooks: ['webhooks'] as const };

export default function NotificationsPage() {
  const qc = useQueryClient();
  const tenant = useTenant();
  const isAdmin = tenant.data?.role === 'owner' || tenant.data?.role === 'admin';
  const settings = useQuery({ queryKey: nk.settings, queryFn: ({ signal }) => get<Settings>('/api/users/me/notifications', signal) });
  const mine = useQuery({ queryKey: nk.mine, queryFn: ({ signal }) => get<Page<DeliveryRow>>('/api/users/me/notifications/deliveries?limit=10', signal), refetchInterval: 5_000 });
  const hooks = useQuery({ queryKey: nk.hooks, queryFn: ({ signal }) => get<Page<Webhook>>('/api/webhooks?limit=20', signal) });

  const [values, setValues] = useState<NotificationValues | null>(null);
  useEffect(() => {
    if (settings.data) setValues(valuesOf(settings.data));
  }, [settings.data]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [msg, setMsg] = useState({ ok: '', bad: '' });
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState('');
  const save = useMutation({
    mutationFn: (body: unknown) => api<Settings>('PATCH', '/api/users/me/notifications', body),
    onSuccess: (s) => {
      if (s.webhookSecret) {
        setSecret(s.webhookSecret);
        setCopied('');
      }
      const { webhookSecret: _shownOnce, ...rest } = s;
      qc.setQueryData(nk.settings, rest);
      setMsg({ ok: 'Notification settings saved.', bad: '' });
    },
    onError: (e) => setMsg({ ok: '', bad: describeError(e) }),
  });
  const onSave = () => {
    if (!settings.data || !values) return;
    setMsg({ ok: '', bad: '' });
    const body = patchOf(settings.data, values);
    if (Object.keys(body).length === 0) return setMsg({ ok: 'Nothing changed.', bad: '' });
    const v = validate(notificationPatch, body);
    if (!v.ok) return setErrors(v.errors);
    if (values.channel === 'webhook' && !values.webhookUrl.trim()) return setErrors({ webhookUrl: 'Alerts by webhook need a URL.' });
    setErrors({});
    save.mutate(body);
  };

  const [testMsg, setTestMsg] = useState({ ok: '', bad: '' });
  const test = useMutation({
    mutationFn: () => api<z.output<typeof testAlertResult>>('POST', '/api/users/me/notifications/test', {}),
    onSuccess: (r) => {
      setTestMsg({ ok: r.channel === 'email' ? `Test alert sent by e-mail to ${r.to}.` : `Test alert sent to ${r.to}: follow it in “Your alert deliveries” below.`, bad: '' });
      void qc.invalidateQueries({ queryKey: nk.mine });
    },
    onError: (e) => setTestMsg({ ok: '', bad: describeError(e) }),
  });

  const [replayMsg, setReplayMsg] = useState({ ok: '', bad: '' });
  const replay = useMutation({
    mutationFn: (d: DeliveryRow) => api('POST', `/api/webhooks/deliveries/${d.id}/replay`, {}),
    onSuccess: () => {
      setReplayMsg({ ok: 'Replay sent: a new attempt is on its way.', bad: '' });
      void qc.invalidateQueries({ queryKey: nk.mine });
      void qc.invalidateQueries({ queryKey: nk.hooks });
      void qc.invalidateQueries({ queryKey: ['webhooks'] });
    },
    onError: (e) => setReplayMsg({ ok: '', bad: describeError(e) }),
  });
  const onReplay = (d: DeliveryRow) => {
    setReplayMsg({ ok: '', bad: '' });
    replay.mutate(d);
  };

  if (settings.isLoading || !values) return settings.error ? <Notice kind="error">{describeError(settings.error)}</Notice> : <Loading what="notification settings" />;
  return (
    <>
      <h1>Notifications</h1>
      <SettingsCard
        values={values}
        onChange={(k, v) => setValues({ ...values, [k]: v })}
        errors={errors}
        failure={msg.bad}
        saved={msg.ok}
        busy={save.isPending}
        onSave={onSave}
        secret={secret}
        copied={copied}
        onCopySecret={() =>
          void navigator.clipboard.writeText(secret ?? '').then(
            () => setCopied('Copied to the clipboard.'),
            () => setCopied('Copying was refused by the browser: select the secret and copy it by hand.'),
          )
        }
      />
      <Card title="Test">
        <p>Sends a test alert the way real alerts go, on the channel saved above ({settings.data!.channel === 'webhook' ? 'webhook' : 'e-mail'}).</p>
        <Button onPress={() => test.mutate()} isDisabled={test.isPending}>
          Send a test alert
        </Button>
        <Notice kind="success">{testMsg.ok}</Notice>
        <Notice kind="error">{testMsg.bad}</Notice>
      </Card>
      <Notice kind="success">{replayMsg.ok}</Notice>
      <Notice kind="error">{replayMsg.bad}</Notice>
      <Card title="Your alert deliveries">
        <p className="muted">Alerts sent to your alert webhook, newest first. Failed ones are retried after 1 min, 5 min, 30 min, 2 h and 12 h; replay sends one now.</p>
        <DeliveryList label="Your alert deliveries" deliveries={mine.data?.items ?? []} canReplay onReplay={onReplay} busy={replay.isPending} />
      </Card>
      <Card title="Team webhooks">
        {(hooks.data?.items ?? []).length === 0 ? (
          <p className="muted">No webhooks. Owners and admins register them with POST /api/webhooks (see the API reference).</p>
        ) : (
          (hooks.data?.items ?? []).map((h) => (
            <section key={h.id} className="webhook" aria-label={`Webhook ${h.url}`}>
              <h3 className="webhook-url">
                <code>{h.url}</code> {h.enabled ? null : <span className="badge">disabled</span>}
              </h3>
              <p className="muted small">
                {h.description ? `${h.description}. ` : ''}Events: {h.events.join(', ')}. Secret {h.secretHint}
              </p>
              <WebhookDeliveries webhookId={h.id} url={h.url} canReplay={isAdmin} onReplay={onReplay} busy={replay.isPending} />
            </section>
          ))
        )}
      </Card>
    </>
  );
}
