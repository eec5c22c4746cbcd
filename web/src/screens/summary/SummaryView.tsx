// /summary, pure: the period selector, the period's totals with their deltas against the period
// before, the three top movers, and the digest e-mail's preview.
import { ToggleButton, ToggleButtonGroup } from 'react-aria-components';
import type { Summary } from '../../api/types.ts';
import { Button, Card, EngineFooter, Field, Notice } from '../../components/ui.tsx';
import { approxCostUsd, formatDelta, formatTokens } from '../../components/fns/money.ts';
import { BenchmarkPrompt } from '../../components/SavingsChart.tsx';

export const PERIODS = [
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['wtd', 'Week to date'],
  ['mtd', 'Month to date'],
  ['custom', 'Custom'],
] as const;

export function PeriodPicker(p: {
  period: string;
  onPeriod: (p: string) => void;
  from: string;
  to: string;
  onFrom: (v: string) => void;
  onTo: (v: string) => void;
  onApplyCustom: () => void;
}) {
  return (
    <div className="period">
      <ToggleButtonGroup aria-label="Period" selectionMode="single" disallowEmptySelection selectedKeys={[p.period]} onSelectionChange={(k) => p.onPeriod(String([...k][0]))} className="toggles">
        {PERIODS.map(([id, label]) => (
          <ToggleButton key={id} id={id} className="toggle">
            {label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {p.period === 'custom' ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            p.onApplyCustom();
          }}
        >
          <Field label="From" name="from" type="date" value={p.from} onChange={p.onFrom} />
          <Field label="To (inclusive)" name="to" type="date" value={p.to} onChange={p.onTo} />
          <Button type="submit">Show</Button>
        </form>
      ) : null}
    </div>
  );
}

const Delta = ({ value, unit }: { value: string | number; unit?: string }) => (
  <span className="delta">
    {formatDelta(String(value))}
    {unit ? ` ${unit}` : ''} vs the period before
  </span>
);

export function SummaryNumbers({ s }: { s: Summary }) {
  const c = s.current;
  return (
    <Card title={`${s.from.slice(0, 10)} to ${s.to.slice(0, 10)} (${s.timezone})`} footer={<EngineFooter version={s.insightsEngineVersion} />}>
      <dl className="totals" data-testid="summary-totals">
        <div>
          <dt>Service burn</dt>
          <dd data-testid="summary-burn">{formatTokens(c.serviceBurnMicros)} tokens</dd>
          <dd className="muted" data-testid="summary-burn-usd">{approxCostUsd(c.serviceBurnMicros)}</dd>
          <dd>
            <Delta value={s.deltas.serviceBurnMicros} unit="tokens" />
          </dd>
        </div>
        {c.tokensSaved !== null && s.deltas.tokensSaved !== null ? (
          <div>
            <dt>Tokens saved</dt>
            <dd data-testid="summary-saved">{formatTokens(c.tokensSaved)}</dd>
            {c.percentSaved !== null ? <dd className="muted">{c.percentSaved} % saved</dd> : null}
            <dd>
              <Delta value={s.deltas.tokensSaved} />
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Calls</dt>
          <dd data-testid="summary-calls">{c.calls.toLocaleString()}</dd>
          <dd>
            <Delta value={s.deltas.calls} />
          </dd>
        </div>
        <div>
          <dt>Escalations</dt>
          <dd>{c.escalations.toLocaleString()}</dd>
          <dd>
            <Delta value={s.deltas.escalations} />
          </dd>
        </div>
      </dl>
      {c.tokensSaved === null ? <BenchmarkPrompt /> : null}
    </Card>
  );
}

export function Movers({ s }: { s: Summary }) {
  return (
    <Card title="Top movers">
      {s.topMovers.length === 0 ? (
        <p>No project changed its service burn against the period before.</p>
      ) : (
        <ol className="movers" data-testid="movers">
          {s.topMovers.slice(0, 3).map((m) => (
            <li key={m.id}>
              <strong>{m.name}</strong>: {formatTokens(m.currentMicros)} tokens ({formatDelta(m.deltaMicros)} vs {formatTokens(m.previousMicros)})
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

export type DigestPreviewData = { cadence: string; periodStart: string; subject: string; text: string };

export function DigestPreview({ preview, error }: { preview: DigestPreviewData | undefined; error: string }) {
  return (
    <Card title="Digest e-mail preview">
      <Notice kind="error">{error}</Notice>
      {preview ? (
        <>
          <p className="muted">
            {preview.cadence === 'off'
              ? 'Digest e-mails are off for you; this is the latest weekly one as it would look.'
              : `The latest ${preview.cadence} digest, as e-mailed to the wallet owner. The cadence is set under notifications.`}
          </p>
          <div className="mail" data-testid="digest-preview">
            <p>
              <strong>Subject:</strong> {preview.subject}
            </p>
            <pre>{preview.text}</pre>
          </div>
        </>
      ) : null}
    </Card>
  );
}
