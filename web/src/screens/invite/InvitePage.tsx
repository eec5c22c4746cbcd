// /invite?token=…: the invitation e-mail's link (D13). The page reads the invitation first, then
// asks for what accepting needs: the password of the invited address's existing account, or a
// name and a new password. Accepting signs the person in to the team that invited them.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { acceptInviteBody, type acceptResult, type invitePreview } from '../../../../src/http/api/members/schemas.ts';
import { api, qs } from '../../api/client.ts';
import { signedIn } from '../../api/session.ts';
import { AuthCard, SignInLink } from '../../components/AuthCard.tsx';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Button, Field, Loading, Notice } from '../../components/ui.tsx';

type Preview = z.output<typeof invitePreview>;
type Accepted = z.output<typeof acceptResult>;

export default function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const preview = useQuery({
    queryKey: ['invite', token],
    queryFn: () => api<Preview>('GET', `/api/members/invites/preview${qs({ token })}`, undefined, { anonymous: true }),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
  });
  if (!token) {
    return (
      <AuthCard title="Join a team" footer={<SignInLink />}>
        <Notice kind="error">This link has no invitation code. Open the link from the invitation e-mail again.</Notice>
      </AuthCard>
    );
  }
  if (preview.isLoading) return <Loading what="the invitation" />;
  if (preview.error || !preview.data) {
    return (
      <AuthCard title="Join a team" footer={<SignInLink />}>
        <Notice kind="error">{describeError(preview.error)} Ask the person who invited you to send a new invitation.</Notice>
      </AuthCard>
    );
  }
  const p = preview.data;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure('');
    const values = p.accountExists ? { token, password } : { token, name, password };
    const v = validate(acceptInviteBody, values);
    if (!v.ok) return setErrors(v.errors);
    setErrors({});
    setBusy(true);
    try {
      const r = await api<Accepted>('POST', '/api/members/invites/accept', v.data, { anonymous: true });
      if (r.tokens) signedIn(r.tokens.accessToken);
      navigate('/overview', { replace: true });
    } catch (err) {
      setFailure(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard title={`Join ${p.tenant.name}`} footer={<p><Link to="/login">Sign in instead</Link></p>}>
      <p>
        {p.email} is invited to {p.tenant.name} as {p.role === 'admin' ? 'an admin' : `a ${p.role}`}.
        {p.accountExists ? ' Enter the password of your Switchboard account to join.' : ' Choose your name and a password to join.'}
      </p>
      <form onSubmit={submit} noValidate>
        {p.accountExists ? null : <Field label="Your name" name="name" autoComplete="name" value={name} onChange={setName} error={errors.name} autoFocus />}
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete={p.accountExists ? 'current-password' : 'new-password'}
          value={password}
          onChange={setPassword}
          error={errors.password}
          description={p.accountExists ? undefined : 'At least 12 characters.'}
          autoFocus={p.accountExists}
        />
        <Notice kind="error">{failure}</Notice>
        <Button type="submit" isDisabled={busy}>
          Join {p.tenant.name}
        </Button>
      </form>
    </AuthCard>
  );
}
