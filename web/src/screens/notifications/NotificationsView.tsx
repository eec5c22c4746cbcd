// /notifications, pure: thresholds, escalation alert, digest cadence, channel and alert webhook
// (its secret shown once), the test-alert button, and delivery logs with attempts and replay.
import { Checkbox, Label, Radio, RadioGroup } from 'react-aria-components';
import { Button, Card, Field, Notice } from '../../components/ui.tsx';
import { formatWhen } from '../../components/fns/dates.ts';
import type { FieldErrors } from '../../components/fns/form.ts';
import type { NotificationValues } from './fns/settings.ts';

export interface Attempt {
  attempt: number;
  trigger: 'scheduled' | 'replay';
  startedAt: string;
  statusCode: number | null;
  error: string | null;
  succeeded: boolean;
}
export interface DeliveryRow {
  id: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
  attemptLog: Attempt[];
}

function Choice(p: { label: string; value: string; onChange: (v: string) => void; options: Array<[string, string]> }) {
  return (
    <RadioGroup className="radios field" value={p.value} onChange={p.onChange}>
      <Label>{p.label}</Label>
      <div className="radio-row">
        {p.options.map(([id, label]) => (
          <Radio key={id} value={id} className="radio">
            {label}
          </Radio>
        ))}
      </div>
    </RadioGroup>
  );
}

export function SettingsCard(p: {
  values: NotificationValues;
  onChange: <K extends keyof NotificationValues>(k: K, v: NotificationValues[K]) => void;
  errors: FieldErrors;
  failure: string;
  saved: string;
  busy: boolean;
  onSave: () => void;
  secret: string | null;
  onCopySecret: () => void;
  copied: string;
}) {
  const v = p.values;
  return (
    <Card title="Alerts and digest">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          p.onSave();
        }}
      >
        <div className="form-grid">
          <Field
            label="Balance alert below (tokens)"
            name="balance"
            inputMode="numeric"
            value={v.balance}
            onChange={(x) => p.onChange('balance', x)}
            error={p.errors.balanceThresholdMicros}
            description="1 token = $0.000001. Leave empty for no balance alert."
          />
          <Field
            label="Runway alert below (days)"
            name="runway"
            inputMode="numeric"
            value={v.runway}
            onChange={(x) => p.onChange('runway', x)}
            error={p.errors.runwayThresholdDays}
            description="Days the balance lasts at the last 7 days' burn. Empty for none."
          />
        </div>
        <Checkbox className="checkbox" isSelected={v.escalationAlert} onChange={(x) => p.onChange('escalationAlert', x)}>
          <span className="box" aria-hidden="true">
            {v.escalationAlert ? '✓' : ''}
          </span>
          Alert me when a call is escalated (a response fell below the quality floor and was retried one class up)
        </Checkbox>
        <Choice
          label="Digest"
          value={v.digestCadence}
          onChange={(x) => p.onChange('digestCadence', x)}
          options={[
            ['daily', 'Daily'],
            ['weekly', 'Weekly'],
            ['off', 'Off'],
          ]}
        />
        <Choice
          label="Send alerts by"
          value={v.channel}
          onChange={(x) => p.onChange('channel', x)}
          options={[
            ['email', 'E-mail'],
            ['webhook', 'Webhook'],
          ]}
        />
        <Field
          label="Alert webhook URL"
          name="webhookUrl"
          value={v.webhookUrl}
          onChange={(x) => p.onChange('webhookUrl', x)}
          error={p.errors.webhookUrl}
          description="Optional unless alerts go by webhook. Each alert is a signed POST (X-Service-Signature); a new URL gets a new signing secret, shown once."
        />
        <Button type="submit" isDisabled={p.busy}>
          {p.busy ? 'Saving…' : 'Save'}
        </Button>
      </form>
      {p.secret ? (
        <div className="secret" data-testid="alert-secret">
          <span>Signing secret of the alert webhook. Copy it now: it is shown only once.</span>
          <code>{p.secret}</code>
          <Button variant="secondary" onPress={p.onCopySecret}>
            Copy secret
          </Button>
          <span role="status">{p.copied}</span>
        </div>
      ) : null}
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
    </Card>
  );
}

const statusWord = (d: DeliveryRow) =>
  d.status === 'succeeded' ? 'Delivered' : d.status === 'failed' ? 'Failed, dropped' : d.attempts === 0 ? 'Sending' : `Failed, retrying${d.nextAttemptAt ? ` at ${formatWhen(d.nextAttemptAt)}` : ''}`;

export function DeliveryList(p: { label: string; deliveries: DeliveryRow[]; canReplay: boolean; onReplay: (d: DeliveryRow) => void; busy: boolean }) {
  if (p.deliveries.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="sr-only">{p.label}</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Created</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {p.deliveries.map((d) => (
            <tr key={d.id} data-testid={`delivery-${d.id}`}>
              <td>
                <code>{d.eventType}</code>
              </td>
              <td>{formatWhen(d.createdAt)}</td>
              <td>
                <span className={`badge ${d.status === 'succeeded' ? 'badge-ok' : d.attempts > 0 ? 'badge-bad' : ''}`}>{statusWord(d)}</span>
              </td>
              <td>
                {d.attemptLog.length === 0 ? (
                  'none yet'
                ) : (
                  <ol className="attempts">
                    {d.attemptLog.map((a) => (
                      <li key={a.attempt}>
                        {formatWhen(a.startedAt)} {a.trigger === 'replay' ? '(replay) ' : ''}
                        {a.succeeded ? `delivered, ${a.statusCode}` : a.statusCode ? `answered ${a.statusCode}` : `failed: ${a.error ?? 'no answer'}`}
                      </li>
                    ))}
                  </ol>
                )}
              </td>
              <td>
                {p.canReplay && d.status !== 'succeeded' && d.attempts > 0 ? (
                  <Button variant="secondary" onPress={() => p.onReplay(d)} isDisabled={p.busy} aria-label={`Replay the ${d.eventType} delivery of ${formatWhen(d.createdAt)}`}>
                    Replay
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
