// /login: e-mail and password against POST /api/auth/login; the access token stays in memory and
// the refresh cookie is set by the server (D13). Wrong credentials, lockout and the per-IP limit
// each read as what a person should do next.
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { IDLE_REASON_KEY } from '../../components/fns/idle.ts';
import { loginBody } from '../../../../src/http/api/auth/schemas.ts';
import { api } from '../../api/client.ts';
import { signedIn } from '../../api/session.ts';
import type { LoginResult } from '../../api/types.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Button, Field, Notice } from '../../components/ui.tsx';
import { safeNext } from './fns/next.ts';

/** Read once per visit: the idle guard's note that it signed the session out. */
function idleReason(): boolean {
  try {
    const v = sessionStorage.getItem(IDLE_REASON_KEY) === '1';
    sessionStorage.removeItem(IDLE_REASON_KEY);
    return v;
  } catch {
    return false;
  }
}

export default function LoginPage() {
  const [params] = useSearchParams();
  const [idle] = useState(idleReason);
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure('');
    const v = validate(loginBody, { email: email.trim(), password });
    if (!v.ok) return setErrors(v.errors);
    setErrors({});
    setBusy(true);
    try {
      const r = await api<LoginResult>('POST', '/api/auth/login', v.data, { anonymous: true });
      signedIn(r.tokens.accessToken);
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (err) {
      setFailure(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Sign in"
      footer={
        <p>
          New to Switchboard? <Link to="/signup">Create an account</Link>
        </p>
      }
    >
      {idle || params.get('idle') === '1' ? <Notice kind="info">You were signed out after a period of inactivity (your idle sign-out setting on the Security page). Sign in again to continue.</Notice> : null}
      {params.get('reset') === '1' ? <Notice kind="success">Your password was changed. Sign in with the new one.</Notice> : null}
      <form onSubmit={submit} noValidate>
        <Field label="E-mail" name="email" type="email" autoComplete="username" value={email} onChange={setEmail} error={errors.email} autoFocus />
        <Field label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={setPassword} error={errors.password} />
        <Notice kind="error">{failure}</Notice>
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
    </AuthCard>
  );
}
