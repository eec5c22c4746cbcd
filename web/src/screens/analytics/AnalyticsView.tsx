// /analytics, pure: the Usage, Savings, Ledger and Audit tabs and the free-text search. Model ids
// appear only in the Audit tab and in search results (D8); every chart's footer names the
// insights-engine version (D13).
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Link } from 'react-router';
import { Tab, TabList, TabPanel, Tabs, SearchField, Label, Input } from 'react-aria-components';
import type { Activity, ActivityItem, Audit, SavingsSeries, Usage } from '../../api/types.ts';
import { Card, EngineFooter, Loading, LoadMore } from '../../components/ui.tsx';
import { SavingsChart } from '../../components/SavingsChart.tsx';
import { formatTokens } from '../../components/fns/money.ts';
import { formatWhen } from '../../components/fns/dates.ts';
import { compactTokens } from '../../components/fns/chart.ts';
import { WindowToggle } from '../overview/OverviewView.tsx';
import { savingsTotals } from './fns/totals.ts';

export function SearchBox({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <SearchField value={value} onChange={onChange} className="field search" aria-describedby="search-help">
      <Label>Search activity</Label>
      <Input placeholder="Prompt text, project name or model" />
      <span id="search-help" className="muted small">
        Searches prompt fragments, project names and the models that answered.
      </span>
    </SearchField>
  );
}

export function SearchResults({ q, items, more }: { q: string; items: ActivityItem[] | undefined; more: { hasMore: boolean; loading: boolean; onMore: () => void } }) {
  if (!items) return <Loading what="results" />;
  return (
    <Card title={`Results for “${q}”`}>
      {items.length === 0 ? (
        <p>Nothing matches “{q}”.</p>
      ) : (
        <table className="table" data-testid="search-results">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Project</th>
              <th scope="col">Prompt</th>
              <th scope="col">Delivered by</th>
              <th scope="col" className="num">Service burn</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr key={`${i.kind}-${i.id}`}>
                <td>{formatWhen(i.at)}</td>
                <td>{i.projectName ?? '—'}</td>
                <td className="excerpt">{i.promptExcerpt ?? i.label}</td>
                <td>{i.deliveryPath ? [i.deliveryPath.provider, i.deliveryPath.model, i.deliveryPath.region].filter(Boolean).join(' · ') : '—'}</td>
                <td className="num">{i.serviceBurnMicros ? formatTokens(i.serviceBurnMicros) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LoadMore shown={items.length} what="results" {...more} />
    </Card>
  );
}

function BurnBars({ rows, label, unit = 'tokens', series = 'Service burn' }: { rows: Array<{ name: string; burn: string }>; label: string; unit?: string; series?: string }) {
  const data = rows.map((r) => ({ name: r.name, burn: Number(r.burn), text: formatTokens(r.burn) }));
  return (
    <figure className="chart" aria-label={label}>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={data} margin={{ top: 8, right: 16, left: 8, bottom: 0 }}>
          <CartesianGrid stroke="#e3e6ea" vertical={false} />
          <XAxis dataKey="name" tick={{ fill: '#3d4450', fontSize: 12 }} />
          <YAxis tickFormatter={compactTokens} tick={{ fill: '#3d4450', fontSize: 12 }} width={56} />
          <Tooltip formatter={(_v, _n, item) => [`${(item.payload as { text: string }).text} ${unit}`, series]} />
          <Bar dataKey="burn" name={series} fill="#1f5fbf" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

export function UsageTab({ u }: { u: Usage }) {
  return (
    <>
      <Card title={`Service burn by task family (last ${u.windowDays} days)`} footer={<EngineFooter version={u.insightsEngineVersion} />}>
        {u.byTaskFamily.length === 0 ? <p>No calls yet.</p> : <BurnBars label="Service burn by task family" rows={u.byTaskFamily.map((r) => ({ name: r.taskFamily, burn: r.serviceBurnMicros }))} />}
        <RollupTable rows={u.byTaskFamily.map((r) => ({ key: r.taskFamily, name: r.taskFamily, ...r }))} first="Task family" testId="usage-family" />
      </Card>
      <Card title="By project" footer={<EngineFooter version={u.insightsEngineVersion} />}>
        <RollupTable rows={u.byProject.map((r) => ({ key: r.projectId, name: r.projectName, ...r }))} first="Project" testId="usage-project" />
      </Card>
      <Card title="Last 48 hours, by UTC hour" footer={<EngineFooter version={u.insightsEngineVersion} />}>
        {/* The API gives all 48 hours, zeros included, so the bars are a time axis (quiet hours show as 0). */}
        {u.byHour.every((r) => r.calls === 0) ? <p>No calls in the last 48 hours.</p> : <BurnBars label="Service burn per hour (UTC)" rows={u.byHour.map((r) => ({ name: r.hour.slice(11, 16), burn: r.serviceBurnMicros }))} />}
      </Card>
    </>
  );
}

function RollupTable({ rows, first, testId }: { rows: Array<{ key: string; name: string; calls: number; tokens: string; serviceBurnMicros: string }>; first: string; testId: string }) {
  if (rows.length === 0) return null;
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{first}</th>
          <th scope="col" className="num">Calls</th>
          <th scope="col" className="num">Model tokens</th>
          <th scope="col" className="num">Service burn (tokens)</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <td>{r.name}</td>
            <td className="num">{r.calls.toLocaleString()}</td>
            <td className="num">{formatTokens(r.tokens)}</td>
            <td className="num">{formatTokens(r.serviceBurnMicros)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SavingsTab({ s, window, onWindow }: { s: SavingsSeries | undefined; window: string; onWindow: (w: string) => void }) {
  if (!s) return <Loading what="savings" />;
  const t = savingsTotals(s);
  return (
    <Card title={s.benchmark ? `Service burn vs ${s.equivalentLabel}` : 'Service burn'} actions={<WindowToggle value={window} onChange={onWindow} />} footer={<EngineFooter version={s.insightsEngineVersion} />}>
      <dl className="totals">
        <div>
          <dt>Service burn</dt>
          <dd>{formatTokens(t.burn)} tokens</dd>
        </div>
        {t.equivalent !== null ? (
          <>
            <div>
              <dt>{s.equivalentLabel}</dt>
              <dd>{formatTokens(t.equivalent)} tokens</dd>
            </div>
            <div>
              <dt>Tokens saved</dt>
              <dd>{formatTokens(t.saved!)}</dd>
            </div>
          </>
        ) : null}
      </dl>
      <SavingsChart data={s} />
    </Card>
  );
}

export function LedgerTab({ a }: { a: Activity | undefined }) {
  if (!a) return <Loading what="activity" />;
  return (
    <Card title="Recent wallet activity" actions={<Link to="/settings/ledger">Open the full ledger</Link>}>
      <ActivityTable items={a.items} />
    </Card>
  );
}

function ActivityTable({ items }: { items: ActivityItem[] }) {
  if (items.length === 0) return <p>No activity yet.</p>;
  return (
    <table className="table" data-testid="ledger-activity">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Event</th>
          <th scope="col">Project</th>
          <th scope="col" className="num">Tokens</th>
        </tr>
      </thead>
      <tbody>
        {items.map((i) => (
          <tr key={`${i.kind}-${i.id}`}>
            <td>{formatWhen(i.at)}</td>
            <td>{i.label}</td>
            <td>{i.projectName ?? 'Whole account'}</td>
            <td className="num">{i.kind === 'alert' ? '—' : i.kind === 'wallet' ? `+${formatTokens(i.amountMicros ?? '0')}` : `−${formatTokens(i.serviceBurnMicros ?? '0')}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function AuditTab({ a }: { a: Audit | undefined }) {
  if (!a) return <Loading what="the audit" />;
  const d = a.decisions;
  return (
    <>
      <Card title={`Routing decisions (last ${a.windowDays} days)`} footer={<EngineFooter version={a.insightsEngineVersion} />}>
        <dl className="totals">
          {(
            [
              ['Calls', d.calls],
              ['Attempts', d.attempts],
              ['Escalated attempts', d.escalatedAttempts],
              ['Failed attempts', d.failedAttempts],
              ['Scored attempts', d.scoredAttempts],
              ['Below the quality floor', d.belowFloorAttempts],
              ['Reservations released by the sweeper', d.sweptReservations],
            ] as const
          ).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v.toLocaleString()}</dd>
            </div>
          ))}
        </dl>
        {d.byModelClass.length ? <BurnBars label="Attempts by model class" unit="attempts" series="Attempts" rows={d.byModelClass.map((r) => ({ name: r.modelClass, burn: String(r.attempts) }))} /> : null}
      </Card>
      <Card title="Delivery paths">
        {d.deliveryPaths.length === 0 ? (
          <p>No calls yet.</p>
        ) : (
          <table className="table" data-testid="delivery-paths">
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Model</th>
                <th scope="col">Region</th>
                <th scope="col" className="num">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {d.deliveryPaths.map((p) => (
                <tr key={`${p.provider}/${p.model}/${p.region}`}>
                  <td>{p.provider}</td>
                  <td>
                    <code>{p.model}</code>
                  </td>
                  <td>{p.region}</td>
                  <td className="num">{p.attempts.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card title="Routing rule changes">
        {a.changeLog.length === 0 ? (
          <p>No rule changes.</p>
        ) : (
          <ul className="plain">
            {a.changeLog.slice(0, 50).map((c, i) => (
              <li key={`${c.ruleId}-${i}`}>
                {formatWhen(c.at)}: rule {c.ruleId} {c.change} ({c.reason})
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="Exports">
        {a.exportLog.length === 0 ? (
          <p>No exports.</p>
        ) : (
          <ul className="plain">
            {a.exportLog.map((e) => (
              <li key={e.id}>
                {formatWhen(e.at)}: {e.kind}, {e.rows.toLocaleString()} rows
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

export function AnalyticsTabs(p: { tab: string; onTab: (t: string) => void; usage: React.ReactNode; savings: React.ReactNode; ledger: React.ReactNode; audit: React.ReactNode }) {
  return (
    <Tabs selectedKey={p.tab} onSelectionChange={(k) => p.onTab(String(k))} className="tabs">
      <TabList aria-label="Analytics" className="tablist">
        <Tab id="usage">Usage</Tab>
        <Tab id="savings">Savings</Tab>
        <Tab id="ledger">Ledger</Tab>
        <Tab id="audit">Audit</Tab>
      </TabList>
      <TabPanel id="usage">{p.usage}</TabPanel>
      <TabPanel id="savings">{p.savings}</TabPanel>
      <TabPanel id="ledger">{p.ledger}</TabPanel>
      <TabPanel id="audit">{p.audit}</TabPanel>
    </Tabs>
  );
}
