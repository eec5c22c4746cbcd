// /security, pure: open sessions (the current one marked), the idle sign-out setting, personal
// access tokens (the secret shown once, with a copy button) and the tamper-evident audit log.
import { Label, Radio, RadioGroup } from 'react-aria-components';
import type { z } from 'zod';
import type { auditEntry, auditVerdict, pat, session } from '../../../../src/http/api/users/schemas.ts';
import { Button, Card, Field, LoadMore, Notice } from '../../components/ui.tsx';
import { formatDay, formatWhen } from '../../components/fns/dates.ts';
import { IDLE_LABELS } from '../../components/fns/idle.ts';
import type { FieldErrors } from '../../components/fns/form.ts';
import { auditLabel, describeAgent } from './fns/agent.ts';

export type Session = z.output<typeof session>;
export type Pat = z.output<typeof pat>;
export type AuditEntry = z.output<typeof auditEntry>;
export type AuditVerdict = z.output<typeof auditVerdict>;

export function SessionsCard(p: { sessions: Session[]; more: { hasMore: boolean; loading: boolean; onMore: () => void }; onRevoke: (s: Session) => void; busy: boolean; failure: string; saved: string }) {
  return (
    <Card title="Active sessions">
      <p className="muted">Every place you are signed in. Revoking one ends it at once: its refresh token stops working.</p>
      <div className="table-wrap">
        <table className="table">
          <caption className="sr-only">Active sessions</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {p.sessions.map((s) => {
              const device = s.name ?? describeAgent(s.userAgent);
              return (
                <tr key={s.id} data-testid={s.current ? 'session-current' : 'session'}>
                  <td>
                    {device}
                    {s.current ? <span className="badge badge-ok">This session</span> : null}
                  </td>
                  <td>{s.ip ?? 'unknown'}</td>
                  <td>{formatWhen(s.createdAt)}</td>
                  <td>{formatWhen(s.lastSeenAt)}</td>
                  <td>
                    <Button variant="secondary" onPress={() => p.onRevoke(s)} isDisabled={p.busy} aria-label={s.current ? 'Sign out this session' : `Revoke the session on ${device} from ${s.ip ?? 'an unknown address'}`}>
                      {s.current ? 'Sign out' : 'Revoke'}
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <LoadMore shown={p.sessions.length} what="sessions" {...p.more} />
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
    </Card>
  );
}

export function IdleCard(p: { value: string; onChange: (v: string) => void; busy: boolean; failure: string; saved: string }) {
  return (
    <Card title="Automatic sign-out">
      <RadioGroup className="radios" value={p.value} onChange={p.onChange}>
        <Label>Sign me out after this long without activity</Label>
        <div className="radio-row">
          {Object.entries(IDLE_LABELS).map(([id, label]) => (
            <Radio key={id} value={id} className="radio">
              {label}
            </Radio>
          ))}
        </div>
      </RadioGroup>
      <p className="muted small">Applies to every session of yours: this browser signs out on its own, and the server refuses a session idle for longer.</p>
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
    </Card>
  );
}

export function TokensCard(p: {
  tokens: Pat[];
  more: { hasMore: boolean; loading: boolean; onMore: () => void };
  name: string;
  days: string;
  onName: (v: string) => void;
  onDays: (v: string) => void;
  errors: FieldErrors;
  created: string | null;
  copied: string;
  onCopy: () => void;
  onCreate: () => void;
  onRevoke: (t: Pat) => void;
  busy: boolean;
  failure: string;
  saved: string;
}) {
  const live = p.tokens.filter((t) => !t.revokedAt);
  return (
    <Card title="Personal access tokens">
      <p className="muted">For the CLI and scripts: a token acts as you, in this team only. Send it as <code>Authorization: Bearer</code>.</p>
      <form
        noValidate
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          p.onCreate();
        }}
      >
        <Field label="Token name" name="patName" value={p.name} onChange={p.onName} error={p.errors.name} description="What it is for, e.g. “deploy script”." />
        <div className="field select-field">
          <label htmlFor="pat-days">Expires</label>
          <select id="pat-days" value={p.days} onChange={(e) => p.onDays(e.target.value)}>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in a year</option>
            <option value="">never</option>
          </select>
        </div>
        <Button type="submit" isDisabled={p.busy}>
          Create token
        </Button>
      </form>
      {p.created ? (
        <div className="secret" data-testid="new-token">
          <span>Copy it now: it is shown only once.</span>
          <code>{p.created}</code>
          <Button variant="secondary" onPress={p.onCopy}>
            Copy token
          </Button>
          <span role="status">{p.copied}</span>
        </div>
      ) : null}
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
      {live.length === 0 ? (
        <p className="muted">No tokens.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="sr-only">Personal access tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Token</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {live.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>
                    <code>
                      {t.prefix}…{t.last4}
                    </code>
                  </td>
                  <td>{formatDay(t.createdAt)}</td>
                  <td>{t.lastUsedAt ? formatWhen(t.lastUsedAt) : 'never'}</td>
                  <td>{t.expiresAt ? formatDay(t.expiresAt) : 'never'}</td>
                  <td>
                    <Button variant="secondary" onPress={() => p.onRevoke(t)} isDisabled={p.busy} aria-label={`Revoke the token ${t.name}`}>
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore shown={live.length} what="access tokens" {...p.more} />
    </Card>
  );
}

export function AuditCard(p: { entries: AuditEntry[]; more: { hasMore: boolean; loading: boolean; onMore: () => void }; verdict: AuditVerdict | null; onVerify: () => void; busy: boolean; failure: string }) {
  return (
    <Card
      title="Security log"
      actions={
        <Button variant="secondary" onPress={p.onVerify} isDisabled={p.busy}>
          Verify the log
        </Button>
      }
    >
      <p className="muted">Sign-ins, sign-outs, tokens and sessions, append-only and sealed in a chain: changing any entry breaks every later seal.</p>
      {p.verdict ? (
        p.verdict.verified ? (
          <Notice kind="success">
            Verified: all {p.verdict.checked} entries are intact.
          </Notice>
        ) : (
          <Notice kind="error">The log does not verify: the entry {p.verdict.firstBroken} and every later one were altered. Contact support.</Notice>
        )
      ) : null}
      <Notice kind="error">{p.failure}</Notice>
      <div className="table-wrap">
        <table className="table">
          <caption className="sr-only">Security log, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">Address</th>
              <th scope="col">Device</th>
              <th scope="col">Seal</th>
            </tr>
          </thead>
          <tbody>
            {p.entries.map((e) => (
              <tr key={e.id}>
                <td>{formatWhen(e.createdAt)}</td>
                <td>{auditLabel(e.event)}</td>
                <td>{e.ip ?? ''}</td>
                <td>{e.userAgent ? describeAgent(e.userAgent) : ''}</td>
                <td>
                  <code>{e.sealHash.slice(0, 8)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <LoadMore shown={p.entries.length} what="log entries" {...p.more} />
    </Card>
  );
}
