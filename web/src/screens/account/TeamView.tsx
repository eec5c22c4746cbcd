// /account, pure: the team (tenant) name, its members with their bios and pictures, roles of D2
// that owners and admins change, and the invitations they send and withdraw.
import type { z } from 'zod';
import type { invite, member } from '../../../../src/http/api/members/schemas.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Button, Card, Field, LoadMore, Notice } from '../../components/ui.tsx';
import { formatDay } from '../../components/fns/dates.ts';
import type { FieldErrors } from '../../components/fns/form.ts';

export type Member = z.output<typeof member>;
export type Invite = z.output<typeof invite>;
export const ROLE_CHOICES = [
  { id: 'owner', label: 'Owner', help: 'everything, including owners' },
  { id: 'admin', label: 'Admin', help: 'members, keys, billing, settings' },
  { id: 'member', label: 'Member', help: 'uses the service, sees the data' },
  { id: 'viewer', label: 'Viewer', help: 'reads only' },
] as const;
const roleLabel = (r: string) => ROLE_CHOICES.find((c) => c.id === r)?.label ?? r;

export function RoleSelect(p: { id: string; label: string; value: string; onChange: (v: string) => void; disabled?: boolean; hideLabel?: boolean }) {
  return (
    <div className="field select-field">
      <label htmlFor={p.id} className={p.hideLabel ? 'sr-only' : undefined}>
        {p.label}
      </label>
      <select id={p.id} value={p.value} onChange={(e) => p.onChange(e.target.value)} disabled={p.disabled}>
        {ROLE_CHOICES.map((r) => (
          <option key={r.id} value={r.id}>
            {r.label}: {r.help}
          </option>
        ))}
      </select>
    </div>
  );
}

export function TeamNameCard(p: { name: string; value: string; onChange: (v: string) => void; canEdit: boolean; error?: string; failure: string; saved: string; busy: boolean; onSave: () => void }) {
  return (
    <Card title="Name">
      {p.canEdit ? (
        <form
          noValidate
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            p.onSave();
          }}
        >
          <Field label="Team name" name="tenantName" value={p.value} onChange={p.onChange} error={p.error} />
          <Button type="submit" isDisabled={p.busy}>
            Rename team
          </Button>
        </form>
      ) : (
        <p>
          Team name: <strong>{p.name}</strong> <span className="muted">(owners and admins can rename it)</span>
        </p>
      )}
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
    </Card>
  );
}

type More = { hasMore: boolean; loading: boolean; onMore: () => void };

export function MembersCard(p: {
  members: Member[];
  more: More;
  meId: string;
  canManage: boolean;
  onRole: (m: Member, role: string) => void;
  onRemove: (m: Member) => void;
  busy: boolean;
  failure: string;
  saved: string;
}) {
  return (
    <Card title={`Members (${p.members.length}${p.more.hasMore ? ' shown' : ''})`}>
      <ul className="people" aria-label="Members">
        {p.members.map((m) => (
          <li key={m.userId} className="person" data-testid={`member-${m.email}`}>
            <Avatar name={m.name} url={m.avatarUrl} />
            <div className="person-text">
              <div>
                <strong>{m.name}</strong>
                {m.userId === p.meId ? <span className="badge">you</span> : null} <span className="muted">{m.email}</span>
              </div>
              {m.bio ? <p className="bio">{m.bio}</p> : null}
              <div className="muted small">Joined {formatDay(m.createdAt)}</div>
            </div>
            <div className="person-actions">
              {p.canManage ? (
                <RoleSelect id={`role-${m.userId}`} label={`Role of ${m.name}`} hideLabel value={m.role} onChange={(r) => p.onRole(m, r)} disabled={p.busy} />
              ) : (
                <span className="role">{roleLabel(m.role)}</span>
              )}
              {p.canManage && m.userId !== p.meId ? (
                <Button variant="secondary" onPress={() => p.onRemove(m)} isDisabled={p.busy} aria-label={`Remove ${m.name} from the team`}>
                  Remove
                </Button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      <LoadMore shown={p.members.length} what="members" {...p.more} />
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
    </Card>
  );
}

export function InvitesCard(p: {
  invites: Invite[];
  more: More;
  email: string;
  role: string;
  onEmail: (v: string) => void;
  onRole: (v: string) => void;
  errors: FieldErrors;
  failure: string;
  saved: string;
  busy: boolean;
  onInvite: () => void;
  onRevoke: (i: Invite) => void;
}) {
  return (
    <Card title="Invitations">
      <p className="muted">An invitation is an e-mailed link that works once, for 7 days. Nobody joins without accepting it.</p>
      <form
        noValidate
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          p.onInvite();
        }}
      >
        <Field label="E-mail to invite" name="inviteEmail" type="email" value={p.email} onChange={p.onEmail} error={p.errors.email} />
        <RoleSelect id="invite-role" label="Role" value={p.role} onChange={p.onRole} />
        <Button type="submit" isDisabled={p.busy}>
          Send invitation
        </Button>
      </form>
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
      {p.invites.length === 0 ? (
        <p className="muted">No open invitations.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="sr-only">Open invitations</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {p.invites.map((i) => (
                <tr key={i.id}>
                  <td>{i.email}</td>
                  <td>{roleLabel(i.role)}</td>
                  <td>{i.status === 'expired' ? 'Expired' : formatDay(i.expiresAt)}</td>
                  <td>
                    <Button variant="secondary" onPress={() => p.onRevoke(i)} isDisabled={p.busy} aria-label={`Withdraw the invitation to ${i.email}`}>
                      Withdraw
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore shown={p.invites.length} what="invitations" {...p.more} />
    </Card>
  );
}
