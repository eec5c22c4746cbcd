// /forgot-password: POST /api/auth/password/forgot always answers the same (D13), so the page
// says the same thing whether or not the address has an account.
import { useState } from 'react';
import { forgotPasswordBody } from '../../../../src/http/api/auth/schemas.ts';
import { api } from '../../api/client.ts';
import { AuthCard, SignInLink } from '../../components/AuthCard.tsx';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Button, Field, Notice } from '../../components/ui.tsx';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure('');
    const v = validate(forgotPasswordBody, { email: email.trim() });
    if (!v.ok) return setErrors(v.errors);
    setErrors({});
    setBusy(true);
    try {
      await api('POST', '/api/auth/password/forgot', v.data, { anonymous: true });
      setSent(true);
    } catch (err) {
      setFailure(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard title="Forgot your password?" footer={<SignInLink />}>
      {sent ? (
        <Notice kind="success">
          If {email.trim()} has an account, a link to choose a new password is on its way. The link works once, for 30 minutes.
        </Notice>
      ) : (
        <form onSubmit={submit} noValidate>
          <p>Enter your e-mail and we will send you a link to choose a new password.</p>
          <Field label="E-mail" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email} autoFocus />
          <Notice kind="error">{failure}</Notice>
          <Button type="submit" isDisabled={busy}>
            Send the link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
