// /reset-password?token=…: the e-mail's link (D13). A new password ends every session of the
// user, so the page sends them to sign in again.
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { resetPasswordBody } from '../../../../src/http/api/auth/schemas.ts';
import { api } from '../../api/client.ts';
import { AuthCard, SignInLink } from '../../components/AuthCard.tsx';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Button, Field, Notice } from '../../components/ui.tsx';

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  if (!token) {
    return (
      <AuthCard title="Choose a new password" footer={<SignInLink />}>
        <Notice kind="error">This link has no reset code. Open the link from the e-mail again, or <Link to="/forgot-password">ask for a new one</Link>.</Notice>
      </AuthCard>
    );
  }
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure('');
    const v = validate(resetPasswordBody, { token, password });
    if (!v.ok) return setErrors(v.errors);
    setErrors({});
    setBusy(true);
    try {
      await api('POST', '/api/auth/password/reset', v.data, { anonymous: true });
      navigate('/login?reset=1', { replace: true });
    } catch (err) {
      setFailure(`${describeError(err)} Reset links work once and for 30 minutes: ask for a new one if this one has expired.`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard title="Choose a new password" footer={<p><Link to="/forgot-password">Ask for a new link</Link> · <SignInLink /></p>}>
      <form onSubmit={submit} noValidate>
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
          description="At least 12 characters. Every device signed in to your account will be signed out."
          autoFocus
        />
        <Notice kind="error">{failure}</Notice>
        <Button type="submit" isDisabled={busy}>
          Save the new password
        </Button>
      </form>
    </AuthCard>
  );
}
