// /account's team half: data and writes for the tenant's name, members and invitations. Owners
// and admins manage; everyone sees the members with their bios and pictures (the API decides).
import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { inviteBody } from '../../../../src/http/api/members/schemas.ts';
import { tenantPatch } from '../../../../src/http/api/tenant/schemas.ts';
import { api } from '../../api/client.ts';
import { keys, usePaged } from '../../api/queries.ts';
import type { Tenant } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { InvitesCard, MembersCard, TeamNameCard, type Invite, type Member } from './TeamView.tsx';

const teamKeys = { members: ['members'] as const, invites: ['members', 'invites'] as const };

export function TeamSection({ tenant, meId }: { tenant: Tenant; meId: string }) {
  const qc = useQueryClient();
  const canManage = tenant.role === 'owner' || tenant.role === 'admin';
  // D9 pages of 50 (the API's default), then "Load more".
  const members = usePaged<Member>(teamKeys.members, '/api/members', { limit: '50' });
  const invites = usePaged<Invite>(teamKeys.invites, '/api/members/invites', { limit: '50' }, canManage);

  const [name, setName] = useState(tenant.name);
  useEffect(() => setName(tenant.name), [tenant.name]);
  const [nameError, setNameError] = useState<string>();
  const [nameMsg, setNameMsg] = useState({ ok: '', bad: '' });
  const rename = useMutation({
    mutationFn: (body: unknown) => api<Tenant>('PATCH', '/api/tenant', body),
    onSuccess: (t) => {
      qc.setQueryData(keys.tenant, t);
      void qc.invalidateQueries({ queryKey: keys.tenants });
      setNameMsg({ ok: `The team is now called ${t.name}.`, bad: '' });
    },
    onError: (e) => setNameMsg({ ok: '', bad: describeError(e) }),
  });
  const saveName = () => {
    setNameMsg({ ok: '', bad: '' });
    const v = validate(tenantPatch, { name });
    if (!v.ok) return setNameError(v.errors.name);
    setNameError(undefined);
    rename.mutate(v.data);
  };

  const [memberMsg, setMemberMsg] = useState({ ok: '', bad: '' });
  const change = useMutation({
    mutationFn: (x: { m: Member; role?: string }) => (x.role ? api('PATCH', `/api/members/${x.m.userId}`, { role: x.role }) : api('DELETE', `/api/members/${x.m.userId}`)),
    onSuccess: (_r, x) => setMemberMsg({ ok: x.role ? `${x.m.name} is now ${x.role === 'admin' ? 'an' : 'a'} ${x.role}.` : `${x.m.name} was removed from the team.`, bad: '' }),
    onError: (e) => setMemberMsg({ ok: '', bad: describeError(e) }),
    onSettled: () => void qc.invalidateQueries({ queryKey: teamKeys.members }),
  });

  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [inviteErrors, setInviteErrors] = useState<FieldErrors>({});
  const [inviteMsg, setInviteMsg] = useState({ ok: '', bad: '' });
  const invite = useMutation({
    mutationFn: (x: { body?: unknown; revoke?: Invite }) => (x.revoke ? api('DELETE', `/api/members/invites/${x.revoke.id}`) : api<Invite>('POST', '/api/members/invites', x.body)),
    onSuccess: (r, x) => {
      if (x.revoke) setInviteMsg({ ok: `The invitation to ${x.revoke.email} was withdrawn; its link no longer works.`, bad: '' });
      else {
        setInviteMsg({ ok: `Invitation sent to ${(r as Invite).email}.`, bad: '' });
        setEmail('');
      }
    },
    onError: (e) => setInviteMsg({ ok: '', bad: describeError(e) }),
    onSettled: () => void qc.invalidateQueries({ queryKey: teamKeys.invites }),
  });
  const sendInvite = () => {
    setInviteMsg({ ok: '', bad: '' });
    const v = validate(inviteBody, { email: email.trim(), role });
    if (!v.ok) return setInviteErrors(v.errors);
    setInviteErrors({});
    invite.mutate({ body: v.data });
  };

  return (
    <>
      <h2 className="section-title">Team</h2>
      <TeamNameCard name={tenant.name} value={name} onChange={setName} canEdit={canManage} error={nameError} failure={nameMsg.bad} saved={nameMsg.ok} busy={rename.isPending} onSave={saveName} />
      <MembersCard
        members={members.items}
        more={members.more}
        meId={meId}
        canManage={canManage}
        onRole={(m, r) => {
          setMemberMsg({ ok: '', bad: '' });
          change.mutate({ m, role: r });
        }}
        onRemove={(m) => {
          setMemberMsg({ ok: '', bad: '' });
          change.mutate({ m });
        }}
        busy={change.isPending}
        failure={memberMsg.bad || (members.error ? describeError(members.error) : '')}
        saved={memberMsg.ok}
      />
      {canManage ? (
        <InvitesCard
          invites={invites.items}
          more={invites.more}
          email={email}
          role={role}
          onEmail={setEmail}
          onRole={setRole}
          errors={inviteErrors}
          failure={inviteMsg.bad}
          saved={inviteMsg.ok}
          busy={invite.isPending}
          onInvite={sendInvite}
          onRevoke={(i) => {
            setInviteMsg({ ok: '', bad: '' });
            invite.mutate({ revoke: i });
          }}
        />
      ) : null}
    </>
  );
}
