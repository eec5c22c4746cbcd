// Shared, accessible primitives on React Aria Components (a maintained library that brings the
// keyboard, focus and ARIA behaviour), styled by styles.css.
import type { ReactNode } from 'react';
import { Button as AriaButton, FieldError, Input, Label, Text, TextField, type ButtonProps } from 'react-aria-components';

export function Button({ variant = 'primary', ...p }: ButtonProps & { variant?: 'primary' | 'secondary' | 'link' }) {
  return <AriaButton {...p} className={`btn btn-${variant}`} />;
}

export function Field(p: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  type?: 'text' | 'email' | 'password' | 'date' | 'datetime-local';
  autoComplete?: string;
  description?: string;
  autoFocus?: boolean;
  isRequired?: boolean;
  inputMode?: 'numeric' | 'decimal' | 'text';
}) {
  return (
    <TextField
      className="field"
      name={p.name}
      value={p.value}
      onChange={p.onChange}
      type={p.type ?? 'text'}
      autoComplete={p.autoComplete}
      isInvalid={!!p.error}
      isRequired={p.isRequired}
      autoFocus={p.autoFocus}
      inputMode={p.inputMode}
      validationBehavior="aria"
    >
      <Label>{p.label}</Label>
      <Input />
      {p.description ? <Text slot="description">{p.description}</Text> : null}
      <FieldError>{p.error}</FieldError>
    </TextField>
  );
}

/** A message that screen readers announce: errors assertively, notices politely. */
export function Notice({ kind, children }: { kind: 'error' | 'info' | 'success'; children: ReactNode }) {
  if (!children) return null;
  return (
    <div className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Card({ title, children, footer, actions }: { title?: ReactNode; children: ReactNode; footer?: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card">
      {title || actions ? (
        <div className="card-head">
          {title ? <h2>{title}</h2> : null}
          {actions}
        </div>
      ) : null}
      {children}
      {footer ? <div className="card-foot">{footer}</div> : null}
    </section>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** Every chart's footer names the insights-engine version (D13). */
export const EngineFooter = ({ version }: { version: string }) => <span className="engine">Insights engine {version}</span>;
