// The /device screen's pure views: the code form, the confirmation of which device asks, and the
// outcome. Everything comes in by props (DevicePage owns the data).
import { Button, Card, Field, Notice } from '../../components/ui.tsx';

export interface DeviceRequest {
  userCode: string;
  deviceName: string;
  requestedAt: string;
  expiresAt: string;
  ip: string | null;
}

export function CodeForm(p: { code: string; onCode: (v: string) => void; onSubmit: () => void; error: string; fieldError?: string; busy: boolean }) {
  return (
    <Card title="Enter the code from your device">
      <p>The Switchboard desktop bridge (or another device) shows a code when it signs in. Enter it here to connect it to your account.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          p.onSubmit();
        }}
        noValidate
      >
        <Field label="Device code" name="userCode" value={p.code} onChange={p.onCode} error={p.fieldError} autoComplete="off" description="8 letters, like BCDF-GHJK" autoFocus />
        <Notice kind="error">{p.error}</Notice>
        <Button type="submit" isDisabled={p.busy}>
          {p.busy ? 'Checking…' : 'Continue'}
        </Button>
      </form>
    </Card>
  );
}

const time = (iso: string) => new Date(iso).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' });

export function Confirm(p: { request: DeviceRequest; onApprove: () => void; onDeny: () => void; onBack: () => void; error: string; busy: boolean }) {
  const r = p.request;
  return (
    <Card title={`Sign in “${r.deviceName}”?`}>
      <p>
        The device showing <code>{r.userCode}</code> asked to sign in to your Switchboard account at {time(r.requestedAt)}
        {r.ip ? ` from ${r.ip}` : ''}. It will act as you, with a session you can end any time on the Security page. The code expires at {time(r.expiresAt)}.
      </p>
      <p>Approve only if you started this sign-in yourself.</p>
      <Notice kind="error">{p.error}</Notice>
      <div className="filter-actions">
        <Button onPress={p.onApprove} isDisabled={p.busy}>
          Approve
        </Button>
        <Button variant="secondary" onPress={p.onDeny} isDisabled={p.busy}>
          Deny
        </Button>
        <Button variant="link" onPress={p.onBack} isDisabled={p.busy}>
          Enter another code
        </Button>
      </div>
    </Card>
  );
}

export function Outcome(p: { deviceName: string; approved: boolean; onAnother: () => void }) {
  return (
    <Card title={p.approved ? 'Device signed in' : 'Sign-in denied'}>
      <Notice kind={p.approved ? 'success' : 'info'}>
        {p.approved
          ? `“${p.deviceName}” is signed in. Go back to the device: it continues by itself within a few seconds. You can end its session on the Security page.`
          : `“${p.deviceName}” was not signed in. If that was a mistake, start the sign-in again on the device.`}
      </Notice>
      <Button variant="secondary" onPress={p.onAnother}>
        Sign in another device
      </Button>
    </Card>
  );
}
