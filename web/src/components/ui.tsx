// Shared, accessible primitives on React Aria Components (a maintained library that brings the
// keyboard, focus and ARIA behaviour), styled by styles.css.
import { useEffect, useRef, type ReactNode } from 'react';
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

/**
 * The end of a cursor-paged list: how many rows are shown, and a "Load more" button while the API
 * has more (a real button: Tab reaches it, Enter or Space presses it; never disabled while loading, so it
 * keeps the focus). When the last page comes in the button goes; if it had the focus then, the focus
 * moves to the status line ("Showing N …, all there are."), not to the top of the page.
 */
export function LoadMore(p: { shown: number; what: string; hasMore: boolean; loading: boolean; onMore: () => void }) {
  const status = useRef<HTMLParagraphElement>(null);
  const pressed = useRef(false);
  useEffect(() => {
    if (p.hasMore || !pressed.current) return;
    pressed.current = false;
    if (document.activeElement === document.body || document.activeElement === null) status.current?.focus();
  }, [p.hasMore]);
  if (!p.hasMore && p.shown === 0) return null;
  return (
    <div className="load-more">
      <p className="small muted" role="status" ref={status} tabIndex={-1}>
        {p.loading ? `Loading more ${p.what}…` : `Showing ${p.shown} ${p.what}${p.hasMore ? '; there are more' : ', all there are'}.`}
      </p>
      {p.hasMore ? (
        <Button
          variant="secondary"
          onPress={() => {
            if (p.loading) return;
            pressed.current = true;
            p.onMore();
          }}
          aria-label={`Load more ${p.what}`}
        >
          Load more
        </Button>
      ) : null}
    </div>
  );
}

/** Every chart's footer names the insights-engine version (D13). */
/** What a project picker needs to page (`useProjectChoices` in api/queries.ts gives it). */
export interface ProjectPages {
  shown: number;
  paged: boolean;
  more: { hasMore: boolean; loading: boolean; onMore: () => void };
}

/** "Load more" under a project picker, only for a team with more than one page of projects (D9: 200 a page). */
export const ProjectsMore = (p: ProjectPages) => (p.paged ? <LoadMore shown={p.shown} what="projects" {...p.more} /> : null);

export const EngineFooter = ({ version }: { version: string }) => <span className="engine">Insights engine {version}</span>;
