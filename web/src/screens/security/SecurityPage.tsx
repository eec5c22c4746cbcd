// /security (spec §1, D2, issue 16 item 2): sessions with revocation, the idle sign-out setting
// (enforced here by IdleGuard and on the server), personal access tokens shown once, and the
// security log with its chain verification.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { patCreateBody, profilePatchSchema } from '../../../../src/http/api/users/schemas.ts';
import { api, get } from '../../api/client.ts';
import { signedOut } from '../../api/session.ts';
import { keys, useMe, usePaged } from '../../api/queries.ts';
import type { Profile } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { IDLE_LABELS } from '../../components/fns/idle.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { AuditCard, IdleCard, SessionsCard, TokensCard, type AuditEntry, type AuditVerdict, type Pat, type Session } from './SecurityView.tsx';
import '../account/settings.css';

const sk = { sessions: ['security', 'sessions'] as const, tokens: ['security', 'tokens'] as const, audit: ['security', 'audit'] as const };

export default function SecurityPage() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const me = useMe();
  const sessions = usePaged<Session>(sk.sessions, '/api/users/me/sessions', { limit: '50' });
  const tokens = usePaged<Pat>(sk.tokens, '/api/users/me/tokens', { limit: '50' });
  const audit = usePaged<AuditEntry>(sk.audit, '/api/users/me/audit', { limit: '50' });

  const [sessMsg, setSessMsg] = useState({ ok: '', bad: '' });
  const revokeSession = useMutation({
    mutationFn: (s: Session) => api('DELETE', `/api/users/me/sessions/${s.id}`),
    onSuccess: (_r, s) => {
      if (s.current) {
        signedOut();
        qc.clear();
        navigate('/login', { replace: true });
        return;
      }
      setSessMsg({ ok: 'The session was revoked.', bad: '' });
      void qc.invalidateQueries({ queryKey: ['security'] });
    },
    onError: (e) => setSessMsg({ ok: '', bad: describeError(e) }),
  });

  const [idleMsg, setIdleMsg] = useState({ ok: '', bad: '' });
  const idle = useMutation({
    mutationFn: (body: unknown) => api<Profile>('PATCH', '/api/users/me', body),
    onSuccess: (p) => {
      qc.setQueryData(keys.me, p);
      setIdleMsg({ ok: p.idleTimeout === 'never' ? 'Idle sign-out is off.' : `You will be signed out after ${IDLE_LABELS[p.idleTimeout]} without activity.`, bad: '' });
    },
    onError: (e) => setIdleMsg({ ok: '', bad: describeError(e) }),
  });

  const [name, setName] = useState('');
  const [days, setDays] = useState('90');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<string | null>(null);
  const [copied, setCopied] = useState('');
  const [tokMsg, setTokMsg] = useState({ ok: '', bad: '' });
  const tok = useMutation({
    mutationFn: (x: { body?: unknown; revoke?: Pat }) =>
      x.revoke ? api('DELETE', `/api/users/me/tokens/${x.revoke.id}`) : api<{ token: string; record: Pat }>('POST', '/api/users/me/tokens', x.body),
    onSuccess: (r, x) => {
      if (x.revoke) {
        setTokMsg({ ok: `The token ${x.revoke.name} was revoked; it no longer works.`, bad: '' });
        if (created?.endsWith(x.revoke.last4)) setCreated(null);
      } else {
        setCreated((r as { token: string }).token);
        setCopied('');
        setName('');
        setTokMsg({ ok: '', bad: '' });
      }
      void qc.invalidateQueries({ queryKey: ['security'] });
    },
    onError: (e) => setTokMsg({ ok: '', bad: describeError(e) }),
  });
  const create = () => {
    const body = days ? { name, expiresInDays: Number(days) } : { name };
    const v = validate(patCreateBody, body);
    if (!v.ok) return setErrors(v.errors);
    setErrors({});
    tok.mutate({ body: v.data });
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created ?? '');
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying was refused by the browser: select the token and copy it by hand.');
    }
  };

  const [verdict, setVerdict] = useState<AuditVerdict | null>(null);
  const [auditFailure, setAuditFailure] = useState('');
  const verify = useMutation({
    mutationFn: () => get<AuditVerdict>('/api/users/me/audit/verify'),
    onSuccess: (v) => {
      setVerdict(v);
      setAuditFailure('');
      void qc.invalidateQueries({ queryKey: sk.audit });
    },
    onError: (e) => setAuditFailure(describeError(e)),
  });

  if (me.isLoading) return <Loading what="security settings" />;
  if (me.error || !me.data) return <Notice kind="error">{describeError(me.error)}</Notice>;
  return (
    <>
      <h1>Security</h1>
      <SessionsCard sessions={sessions.items} more={{ hasMore: sessions.hasMore, loading: sessions.loadingMore, onMore: sessions.loadMore }} onRevoke={(s) => revokeSession.mutate(s)} busy={revokeSession.isPending} failure={sessMsg.bad || (sessions.error ? describeError(sessions.error) : '')} saved={sessMsg.ok} />
      <IdleCard
        value={me.data.idleTimeout}
        onChange={(v) => {
          const c = validate(profilePatchSchema, { idleTimeout: v });
          if (!c.ok) return setIdleMsg({ ok: '', bad: c.errors.idleTimeout ?? 'Choose one of the options.' });
          idle.mutate(c.data);
        }}
        busy={idle.isPending}
        failure={idleMsg.bad}
        saved={idleMsg.ok}
      />
      <TokensCard
        tokens={tokens.items}
        more={{ hasMore: tokens.hasMore, loading: tokens.loadingMore, onMore: tokens.loadMore }}
        name={name}
        days={days}
        onName={setName}
        onDays={setDays}
        errors={errors}
        created={created}
        copied={copied}
        onCopy={() => void copy()}
        onCreate={create}
        onRevoke={(t) => tok.mutate({ revoke: t })}
        busy={tok.isPending}
        failure={tokMsg.bad}
        saved={tokMsg.ok}
      />
      <AuditCard entries={audit.items} more={{ hasMore: audit.hasMore, loading: audit.loadingMore, onMore: audit.loadMore }} verdict={verdict} onVerify={() => verify.mutate()} busy={verify.isPending} failure={auditFailure || (audit.error ? describeError(audit.error) : '')} />
    </>
  );
}
