// /signup: a new tenant with its owner (D2), validated with the API's own schema.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { signupBody } from '../../../../src/http/api/auth/schemas.ts';
import { api } from '../../api/client.ts';
import { signedIn } from '../../api/session.ts';
import type { LoginResult } from '../../api/types.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Button, Field, Notice } from '../../components/ui.tsx';

export default function SignupPage() {
  const navigate = useNavigate();
  const [f, setF] = useState({ name: '', email: '', password: '', tenantName: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (v: string) => setF((x) => ({ ...x, [k]: v }));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure('');
    const v = validate(signupBody, { ...f, email: f.email.trim() });
    if (!v.ok) return setErrors(v.errors);
    setErrors({});
    setBusy(true);
    try {
      const r = await api<LoginResult>('POST', '/api/auth/signup', v.data, { anonymous: true });
      signedIn(r.tokens.accessToken);
      navigate('/overview', { replace: true });
    } catch (err) {
      setFailure(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Create an account"
      footer={
        <p>
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      }
    >
      <form onSubmit={submit} noValidate>
        <Field label="Your name" name="name" autoComplete="name" value={f.name} onChange={set('name')} error={errors.name} autoFocus />
        <Field label="Team or company name" name="tenantName" autoComplete="organization" value={f.tenantName} onChange={set('tenantName')} error={errors.tenantName} />
        <Field label="E-mail" name="email" type="email" autoComplete="email" value={f.email} onChange={set('email')} error={errors.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={f.password}
          onChange={set('password')}
          error={errors.password}
          description="At least 12 characters."
        />
        <Notice kind="error">{failure}</Notice>
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </Button>
      </form>
    </AuthCard>
  );
}
