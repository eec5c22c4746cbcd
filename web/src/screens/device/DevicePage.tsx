// /device (D14): a signed-in user confirms the code a device shows (the desktop bridge's device
// authorisation, RFC 8628). ?code= from the device's link fills the form and checks it at once.
// Reads GET /api/auth/device/verify, answers POST /api/auth/device/confirm.
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, qs } from '../../api/client.ts';
import { describeError } from '../../components/errors.ts';
import { CodeForm, Confirm, Outcome, type DeviceRequest } from './DeviceView.tsx';
import { formatUserCode, userCodeProblem } from './fns/user-code.ts';

type Step = { kind: 'enter' } | { kind: 'confirm'; request: DeviceRequest } | { kind: 'done'; deviceName: string; approved: boolean };

export default function DevicePage() {
  const [params] = useSearchParams();
  const [code, setCode] = useState(formatUserCode(params.get('code') ?? ''));
  const [step, setStep] = useState<Step>({ kind: 'enter' });
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const check = async (value: string) => {
    setError('');
    const problem = userCodeProblem(value);
    setFieldError(problem ?? undefined);
    if (problem) return;
    setBusy(true);
    try {
      const request = await api<DeviceRequest>('GET', `/api/auth/device/verify${qs({ userCode: value })}`);
      setStep({ kind: 'confirm', request });
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  // The device's own link (verificationUriComplete) carries the code: check it once on arrival.
  const checkedLink = useRef(false);
  useEffect(() => {
    if (checkedLink.current || !params.get('code')) return;
    checkedLink.current = true;
    void check(params.get('code')!);
    // Only on arrival: later edits are checked when the form is sent.
  }, []);

  const decide = async (request: DeviceRequest, approve: boolean) => {
    setError('');
    setBusy(true);
    try {
      const r = await api<{ deviceName: string; approved: boolean }>('POST', '/api/auth/device/confirm', { userCode: request.userCode, approve });
      setStep({ kind: 'done', deviceName: r.deviceName, approved: r.approved });
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const restart = () => {
    setStep({ kind: 'enter' });
    setCode('');
    setError('');
  };

  return (
    <>
      <h1>Sign in a device</h1>
      {step.kind === 'enter' ? <CodeForm code={code} onCode={(v) => setCode(formatUserCode(v))} onSubmit={() => void check(code)} error={error} fieldError={fieldError} busy={busy} /> : null}
      {step.kind === 'confirm' ? (
        <Confirm request={step.request} onApprove={() => void decide(step.request, true)} onDeny={() => void decide(step.request, false)} onBack={restart} error={error} busy={busy} />
      ) : null}
      {step.kind === 'done' ? <Outcome deviceName={step.deviceName} approved={step.approved} onAnother={restart} /> : null}
    </>
  );
}
