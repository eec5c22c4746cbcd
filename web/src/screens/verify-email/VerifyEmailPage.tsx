// /verify-email?token=…: the e-mail's link (D13) confirms the address once the page opens.
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import type { Profile } from '../../api/types.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { describeError } from '../../components/errors.ts';
import { Loading, Notice } from '../../components/ui.tsx';

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const q = useQuery({
    queryKey: ['verify-email', token],
    queryFn: () => api<Profile>('POST', '/api/auth/verify-email', { token }, { anonymous: true }),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
  });
  return (
    <AuthCard title="Verify your e-mail" footer={<Link to="/">Go to Switchboard</Link>}>
      {!token ? <Notice kind="error">This link has no verification code. Open the link from the e-mail again.</Notice> : null}
      {q.isLoading ? <Loading what="the verification" /> : null}
      {q.data ? <Notice kind="success">{q.data.email} is verified. Thank you.</Notice> : null}
      {q.error ? (
        <Notice kind="error">
          {describeError(q.error)} Verification links expire: sign in and send a new one from your account.
        </Notice>
      ) : null}
    </AuthCard>
  );
}
