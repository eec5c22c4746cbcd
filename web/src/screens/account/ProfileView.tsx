// /account, pure: the profile form (name, e-mail with its verification state, searchable time
// zone, bio, avatar URL) and the password change form.
import { ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Button as AriaButton, Text, FieldError, TextArea, TextField, useFilter } from 'react-aria-components';
import type { Profile } from '../../api/types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { Button, Card, Field, Notice } from '../../components/ui.tsx';
import { formatDay } from '../../components/fns/dates.ts';
import type { FieldErrors } from '../../components/fns/form.ts';
import type { ProfileValues } from './fns/profile.ts';

export function TimeZoneField(p: { zones: string[]; value: string; onChange: (v: string) => void; error?: string }) {
  const { contains } = useFilter({ sensitivity: 'base' });
  return (
    <ComboBox
      className="field combo"
      defaultFilter={contains}
      defaultItems={p.zones.map((z) => ({ id: z, name: z.replace(/_/g, ' ') }))}
      selectedKey={p.value}
      onSelectionChange={(k) => k !== null && p.onChange(String(k))}
      isInvalid={!!p.error}
      validationBehavior="aria"
      menuTrigger="focus"
    >
      <Label>Time zone</Label>
      <div className="combo-box">
        <Input />
        <AriaButton className="combo-button" aria-label="Show time zones">
          ▾
        </AriaButton>
      </div>
      <Text slot="description">Type to search, e.g. “Paris” or “New York”. Digests arrive and times show in this zone.</Text>
      <FieldError>{p.error}</FieldError>
      <Popover className="popover combo-popover">
        <ListBox className="menu combo-list">
          {(z: { id: string; name: string }) => (
            <ListBoxItem id={z.id} className="menu-item" textValue={z.name}>
              {z.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}

export function ProfileCard(p: {
  profile: Profile;
  values: ProfileValues;
  onChange: (k: keyof ProfileValues, v: string) => void;
  zones: string[];
  errors: FieldErrors;
  failure: string;
  saved: string;
  busy: boolean;
  onSave: () => void;
}) {
  const v = p.values;
  return (
    <Card title="Profile">
      <div className="profile-head">
        <Avatar name={v.name || p.profile.name} url={v.avatarUrl} size="lg" />
        <p className="muted">Your name, bio and picture are visible to the other members of your teams.</p>
      </div>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          p.onSave();
        }}
      >
        <div className="form-grid">
          <Field label="Name" name="name" value={v.name} onChange={(x) => p.onChange('name', x)} error={p.errors.name} autoComplete="name" />
          <Field
            label="E-mail"
            name="email"
            type="email"
            value={v.email}
            onChange={(x) => p.onChange('email', x)}
            error={p.errors.email}
            autoComplete="email"
            description="A new address takes effect when you open the link we send to it."
          />
          <TimeZoneField zones={p.zones} value={v.timezone} onChange={(x) => p.onChange('timezone', x)} error={p.errors.timezone} />
          <Field
            label="Avatar URL"
            name="avatarUrl"
            value={v.avatarUrl}
            onChange={(x) => p.onChange('avatarUrl', x)}
            error={p.errors.avatarUrl}
            description="An https link to a square picture. Leave empty for your initials."
          />
        </div>
        <TextField className="field" value={v.bio} onChange={(x) => p.onChange('bio', x)} isInvalid={!!p.errors.bio} validationBehavior="aria">
          <Label>Bio</Label>
          <TextArea rows={3} />
          <Text slot="description">A line or two for your teammates (up to 1,000 characters).</Text>
          <FieldError>{p.errors.bio}</FieldError>
        </TextField>
        <Button type="submit" isDisabled={p.busy}>
          {p.busy ? 'Saving…' : 'Save profile'}
        </Button>
      </form>
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
    </Card>
  );
}

export function EmailStatus(p: { profile: Profile; onSend: () => void; onCancel: () => void; busy: boolean; message: string; failure: string }) {
  const { profile } = p;
  return (
    <Card title="E-mail address">
      <p data-testid="email-status">
        Signing in and mail use <strong>{profile.email}</strong>
        {profile.emailVerifiedAt ? `, verified on ${formatDay(profile.emailVerifiedAt)}.` : ', not verified yet.'}
      </p>
      {profile.pendingEmail ? (
        <p className="prompt" data-testid="pending-email">
          Waiting for <strong>{profile.pendingEmail}</strong> to be confirmed: open the link we sent there. Until then nothing changes.
        </p>
      ) : null}
      <div className="row-actions">
        {profile.pendingEmail || !profile.emailVerifiedAt ? (
          <Button variant="secondary" onPress={p.onSend} isDisabled={p.busy}>
            {profile.pendingEmail ? `Resend the link to ${profile.pendingEmail}` : 'Send a verification link'}
          </Button>
        ) : null}
        {profile.pendingEmail ? (
          <Button variant="secondary" onPress={p.onCancel} isDisabled={p.busy}>
            Keep {profile.email}
          </Button>
        ) : null}
      </div>
      <Notice kind="success">{p.message}</Notice>
      <Notice kind="error">{p.failure}</Notice>
    </Card>
  );
}

export function PasswordCard(p: {
  current: string;
  next: string;
  onCurrent: (v: string) => void;
  onNext: (v: string) => void;
  errors: FieldErrors;
  failure: string;
  saved: string;
  busy: boolean;
  onSave: () => void;
}) {
  return (
    <Card title="Password">
      <form
        noValidate
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          p.onSave();
        }}
      >
        <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" value={p.current} onChange={p.onCurrent} error={p.errors.currentPassword} />
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={p.next}
          onChange={p.onNext}
          error={p.errors.newPassword}
          description="At least 12 characters."
        />
        <Button type="submit" isDisabled={p.busy}>
          Change password
        </Button>
      </form>
      <p className="muted small">Changing it signs out your other sessions; this one stays signed in.</p>
      <Notice kind="error">{p.failure}</Notice>
      <Notice kind="success">{p.saved}</Notice>
    </Card>
  );
}
