// /smartone, pure: the workspace switcher (choose, create, rename, delete), the chosen project's
// budget, quality floor in plain words, benchmark override and stage, and its activity with filters.
import { Label, Radio, RadioGroup } from 'react-aria-components';
import type { ActivityItem, Project } from '../../api/types.ts';
import { Button, Card, Field, LoadMore, Notice } from '../../components/ui.tsx';
import type { FieldErrors } from '../../components/fns/form.ts';
import { formatTokens, formatUsd } from '../../components/fns/money.ts';
import { formatWhen } from '../../components/fns/dates.ts';
import { BRAND_CHOICES } from '../billing/BillingView.tsx';
import { feedDetail } from '../overview/fns/feed.ts';
import { describeFloor, FLOOR_LEVELS, STAGE_WORDS } from './fns/floor.ts';

export function Switcher(p: { projects: Project[]; more: { hasMore: boolean; loading: boolean; onMore: () => void }; shown: number; paged: boolean; selected: string; onSelect: (id: string) => void; canEdit: boolean; newName: string; onNewName: (v: string) => void; createError?: string; failure: string; busy: boolean; onCreate: () => void }) {
  return (
    <Card title="Workspaces">
      <div className="inline-form">
        <div className="field">
          <label htmlFor="ws-switch">Workspace</label>
          <select id="ws-switch" className="select" value={p.selected} onChange={(e) => p.onSelect(e.target.value)}>
            {p.projects.map((pr) => (
              <option key={pr.id} value={pr.id}>
                {pr.name}
                {pr.isDefault ? ' (default)' : ''}
              </option>
            ))}
          </select>
        </div>
        {p.canEdit ? (
          <form
            className="inline-form"
            aria-label="Create a project"
            onSubmit={(e) => {
              e.preventDefault();
              p.onCreate();
            }}
          >
            <Field label="New project name" name="newProject" value={p.newName} onChange={p.onNewName} error={p.createError} />
            <Button type="submit" isDisabled={p.busy}>
              Create project
            </Button>
          </form>
        ) : null}
      </div>
      {/* Only for a team with more than one page of projects (D9: 200 a page). */}
      {p.more.hasMore || p.paged ? <LoadMore shown={p.shown} what="projects" {...p.more} /> : null}
      <Notice kind="error">{p.failure}</Notice>
    </Card>
  );
}

export interface SettingsForm {
  name: string;
  budget: string;
  floor: string;
  benchmark: string;
}

export function SettingsCard(p: {
  project: Project;
  tenantBrand: string | null;
  form: SettingsForm;
  onChange: (f: SettingsForm) => void;
  errors: FieldErrors;
  failure: string;
  saved: string;
  busy: boolean;
  canEdit: boolean;
  onSave: () => void;
}) {
  const floor = describeFloor(Number(p.form.floor));
  const levels = FLOOR_LEVELS.map((l) => String(l.value));
  return (
    <Card title={`Settings of ${p.project.name}`}>
      <p data-testid="stage">
        <span className={`stage stage-${p.project.stage}`}>{p.project.stage}</span> {STAGE_WORDS[p.project.stage]}
      </p>
      <form
        aria-label="Project settings"
        onSubmit={(e) => {
          e.preventDefault();
          p.onSave();
        }}
      >
        <Field label="Name" name="name" value={p.form.name} onChange={(name) => p.onChange({ ...p.form, name })} error={p.errors.name} />
        <Field
          label="Monthly budget (US dollars)"
          name="budget"
          inputMode="decimal"
          value={p.form.budget}
          onChange={(budget) => p.onChange({ ...p.form, budget })}
          error={p.errors.monthlyBudgetMicros}
          description={
            p.project.monthlyBudgetMicros === null
              ? 'Leave empty for no limit (the wallet is the only limit now). Calls that would go over the budget are refused until next month.'
              : `Now ${formatTokens(p.project.monthlyBudgetMicros)} tokens (${formatUsd(p.project.monthlyBudgetMicros)}) a month. Leave empty for no limit.`
          }
        />
        <RadioGroup value={levels.includes(p.form.floor) ? p.form.floor : ''} onChange={(floor) => p.onChange({ ...p.form, floor })} className="radios" aria-describedby="floor-words">
          <Label>Quality floor</Label>
          <div className="radio-row">
            {FLOOR_LEVELS.map((l) => (
              <Radio key={l.value} value={String(l.value)} className="radio">
                {l.name}
              </Radio>
            ))}
          </div>
        </RadioGroup>
        <p id="floor-words" className="floor-words" data-testid="floor-words">
          <strong>{floor.name}.</strong> {floor.words}
        </p>
        <div className="field">
          <label htmlFor="bench-override">Benchmark provider for this project</label>
          <select id="bench-override" className="select" value={p.form.benchmark} onChange={(e) => p.onChange({ ...p.form, benchmark: e.target.value })} aria-describedby="bench-help">
            <option value="">Same as the team ({p.tenantBrand ?? 'none chosen yet'})</option>
            {BRAND_CHOICES.map((b) => (
              <option key={b.key} value={b.key}>
                {b.brand}
              </option>
            ))}
          </select>
          <span id="bench-help" className="small muted">
            Savings of this project's calls are measured against this brand. A change applies to new calls only.
          </span>
        </div>
        <Notice kind="error">{p.failure}</Notice>
        <Notice kind="success">{p.saved}</Notice>
        {p.canEdit ? (
          <Button type="submit" isDisabled={p.busy}>
            Save settings
          </Button>
        ) : (
          <p className="muted">Only owners and admins can change a project.</p>
        )}
      </form>
    </Card>
  );
}

export function DeleteCard(p: { project: Project; confirming: boolean; onAsk: () => void; onCancel: () => void; onConfirm: () => void; busy: boolean; failure: string }) {
  if (p.project.isDefault) return null;
  return (
    <Card title="Delete this project">
      <p>Deleting {p.project.name} revokes its keys at once; its history stays in the ledger.</p>
      {p.confirming ? (
        <div role="group" aria-label="Confirm deletion" className="filter-actions">
          <Button variant="primary" onPress={p.onConfirm} isDisabled={p.busy} autoFocus>
            Delete {p.project.name} for good
          </Button>
          <Button variant="secondary" onPress={p.onCancel}>
            Keep it
          </Button>
        </div>
      ) : (
        <Button variant="secondary" onPress={p.onAsk}>
          Delete project
        </Button>
      )}
      <Notice kind="error">{p.failure}</Notice>
    </Card>
  );
}

export const CHANNEL_CHOICES = ['proxy', 'mcp', 'extension', 'bridge', 'copy-paste', 'advisory'] as const;

export function ActivityCard(p: { items: ActivityItem[]; more: { hasMore: boolean; loading: boolean; onMore: () => void }; live: boolean; channel: string; search: string; onChannel: (c: string) => void; onSearch: (s: string) => void; loading: boolean }) {
  return (
    <Card title="Activity">
      <div className="filters" role="search" aria-label="Filter the activity">
        <label>
          Channel
          <select value={p.channel} onChange={(e) => p.onChannel(e.target.value)}>
            <option value="">All</option>
            {CHANNEL_CHOICES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search prompts
          <input type="search" value={p.search} onChange={(e) => p.onSearch(e.target.value)} />
        </label>
      </div>
      <p className="muted" role="status" aria-live="polite">
        {p.live ? <span className="live-dot" aria-hidden="true" /> : null}
        {p.live ? 'Live: new calls of this project appear here as they happen.' : 'Connecting to live updates…'}
      </p>
      {p.items.length === 0 ? (
        <p>{p.loading ? 'Loading…' : p.channel || p.search ? 'Nothing matches these filters.' : 'No activity in this project yet.'}</p>
      ) : (
        <ol className="feed" aria-label="Project activity" data-testid="project-feed">
          {p.items.map((i) => (
            <li key={`${i.kind}-${i.id}`} className={`feed-${i.kind}`}>
              <span className="feed-label">{i.label}</span>
              <span className="feed-detail">
                {feedDetail({ ...i, projectName: null })}
                {i.promptExcerpt ? <span className="excerpt"> · “{i.promptExcerpt}”</span> : null}
              </span>
              <time dateTime={i.at}>{formatWhen(i.at)}</time>
            </li>
          ))}
        </ol>
      )}
      <LoadMore shown={p.items.length} what="activity items" {...p.more} />
    </Card>
  );
}
