// /account (spec §1, issue 16 item 1): the profile, validated with the API's own PATCH schema; the
// e-mail's verification (a new address waits for its link); the password; and the team.
import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { passwordChangeBody, profilePatchSchema } from '../../../../src/http/api/users/schemas.ts';
import { api } from '../../api/client.ts';
import { keys, useMe, useTenant } from '../../api/queries.ts';
import type { Profile } from '../../api/types.ts';
import { describeError } from '../../components/errors.ts';
import { validate, type FieldErrors } from '../../components/fns/form.ts';
import { Loading, Notice } from '../../components/ui.tsx';
import { changedFields, timeZones, valuesOf, type ProfileValues } from './fns/profile.ts';
import { EmailStatus, PasswordCard, ProfileCard } from './ProfileView.tsx';
import { TeamSection } from './TeamSection.tsx';
import './settings.css';

export default function AccountPage() {
  const qc = useQueryClient();
  const me = useMe();
  const tenant = useTenant();
  const zones = useMemo(timeZones, []);

  const [values, setValues] = useState<ProfileValues | null>(null);
  useEffect(() => {
    if (me.data) setValues(valuesOf(me.data));
  }, [me.data]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [msg, setMsg] = useState({ ok: '', bad: '' });
  const save = useMutation({
    mutationFn: (body: unknown) => api<Profile>('PATCH', '/api/users/me', body),
    onSuccess: (p, body) => {
      qc.setQueryData(keys.me, p);
      void qc.invalidateQueries({ queryKey: ['members'] });
      const asked = (body as { email?: string }).email;
      setMsg({
        ok: asked && p.pendingEmail ? `Saved. We sent a link to ${p.pendingEmail}: your e-mail changes when you open it.` : 'Profile saved.',
        bad: '',
      });
    },
    onError: (e) => setMsg({ ok: '', bad: describeError(e) }),
  });
  const onSave = () => {
    if (!me.data || !values) return;
    setMsg({ ok: '', bad: '' });
    const body = changedFields(me.data, values);
    if (Object.keys(body).length === 0) return setMsg({ ok: 'Nothing changed.', bad: '' });
    const v = validate(profilePatchSchema, body);
    if (!v.ok) return setErrors(v.errors);
    setErrors({});
    save.mutate(v.data);
  };

  const [mailMsg, setMailMsg] = useState({ ok: '', bad: '' });
  const mail = useMutation({
    mutationFn: (x: { cancel?: boolean }) => (x.cancel ? api<Profile>('PATCH', '/api/users/me', { email: me.data!.email }) : api('POST', '/api/users/me/verify-email', {})),
    onSuccess: (r, x) => {
      if (x.cancel) {
        qc.setQueryData(keys.me, r as Profile);
        setMailMsg({ ok: `The change was cancelled; your e-mail stays ${(r as Profile).email}.`, bad: '' });
      } else setMailMsg({ ok: `Link sent to ${me.data!.pendingEmail ?? me.data!.email}. It works for 24 hours.`, bad: '' });
    },
    onError: (e) => setMailMsg({ ok: '', bad: describeError(e) }),
  });

  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [pwErrors, setPwErrors] = useState<FieldErrors>({});
  const [pwMsg, setPwMsg] = useState({ ok: '', bad: '' });
  const pw = useMutation({
    mutationFn: (body: unknown) => api('POST', '/api/users/me/password', body),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setPwMsg({ ok: 'Password changed. Your other sessions were signed out.', bad: '' });
    },
    onError: (e) => setPwMsg({ ok: '', bad: describeError(e) }),
  });
  const onPassword = () => {
    setPwMsg({ ok: '', bad: '' });
    const v = validate(passwordChangeBody, { currentPassword: current, newPassword: next });
    if (!v.ok) return setPwErrors(v.errors);
    setPwErrors({});
    pw.mutate(v.data);
  };

  if (me.isLoading || !values) return me.error ? <Notice kind="error">{describeError(me.error)}</Notice> : <Loading what="your account" />;
  const profile = me.data!;
  return (
    <>
      <h1>Account</h1>
      <ProfileCard
        profile={profile}
        values={values}
        onChange={(k, v) => setValues({ ...values, [k]: v })}
        zones={zones}
        errors={errors}
        failure={msg.bad}
        saved={msg.ok}
        busy={save.isPending}
        onSave={onSave}
      />
      <EmailStatus
        profile={profile}
        busy={mail.isPending}
        onSend={() => mail.mutate({})}
        onCancel={() => mail.mutate({ cancel: true })}
        message={mailMsg.ok}
        failure={mailMsg.bad}
      />
      <PasswordCard current={current} next={next} onCurrent={setCurrent} onNext={setNext} errors={pwErrors} failure={pwMsg.bad} saved={pwMsg.ok} busy={pw.isPending} onSave={onPassword} />
      {tenant.data ? <TeamSection tenant={tenant.data} meId={profile.id} /> : null}
    </>
  );
}
