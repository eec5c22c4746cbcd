// The advisory report (D14 tier 6), pure: tiles, the chart of Tokens saved by task family, the
// breakdowns, the lines that could not be used and the first rows. Locked vocabulary (spec §1):
// model classes, never model ids; with no benchmark provider the savings give way to the prompt
// to choose one, never a 0 %.
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AdvisoryImport, AdvisoryReport } from '../../api/types.ts';
import { BenchmarkPrompt } from '../../components/SavingsChart.tsx';
import { compactTokens } from '../../components/fns/chart.ts';
import { formatBps, formatTokens } from '../../components/fns/money.ts';
import { Button, Card, EngineFooter } from '../../components/ui.tsx';

type Figures = AdvisoryReport['totals'];

const label = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/-/g, ' ');

function Tile({ name, value, sub, testId }: { name: string; value: string; sub?: string; testId?: string }) {
  return (
    <div className="tile" data-testid={testId}>
      <div className="tile-label">{name}</div>
      <div className="tile-value">{value}</div>
      {sub ? <div className="tile-sub">{sub}</div> : null}
    </div>
  );
}

export function ImportProgress({ imp }: { imp: AdvisoryImport }) {
  const p = imp.progress;
  const handled = p.processedRows + p.malformedRows;
  return (
    <div className="advisory-progress">
      <label htmlFor="advisory-progress">
        {imp.status === 'failed' ? 'Import failed' : imp.status === 'done' ? 'Finished' : 'Classifying your calls'}: {handled.toLocaleString('en-US')} of {p.totalRows.toLocaleString('en-US')} lines
      </label>
      <progress id="advisory-progress" max={100} value={p.percent} aria-valuetext={`${p.percent} %`}>
        {p.percent} %
      </progress>
    </div>
  );
}

function SavingsByFamily({ report }: { report: AdvisoryReport }) {
  const rows = report.byTaskFamily.map((f) => ({ family: label(f.taskFamily), saved: Number(f.tokensSaved ?? '0'), text: formatTokens(f.tokensSaved ?? '0') }));
  return (
    <figure className="chart" aria-label={`Tokens saved by task family against ${report.equivalentLabel}`}>
      <div className="chart-box">
        <ResponsiveContainer width="100%" height={260}>
          <BarChart data={rows} margin={{ top: 8, right: 16, left: 8, bottom: 0 }}>
            <CartesianGrid stroke="#e3e6ea" vertical={false} />
            <XAxis dataKey="family" tick={{ fill: '#3d4450', fontSize: 12 }} interval={0} />
            <YAxis tickFormatter={compactTokens} tick={{ fill: '#3d4450', fontSize: 12 }} width={56} />
            <Tooltip formatter={(_v, _n, item) => [`${(item.payload as (typeof rows)[number]).text} tokens`, 'Tokens saved']} />
            <Bar dataKey="saved" name="Tokens saved" isAnimationActive={false}>
              {rows.map((r) => (
                <Cell key={r.family} fill={r.saved < 0 ? '#b3261e' : '#1f5fbf'} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted">Tokens saved per task family: {report.equivalentLabel} minus what Switchboard would have spent on the same calls.</figcaption>
    </figure>
  );
}

function BreakdownTable({ caption, rows, report }: { caption: string; rows: Array<Figures & { name: string }>; report: AdvisoryReport }) {
  const bench = report.benchmark !== null;
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{caption}</th>
            <th scope="col" className="num">Calls</th>
            <th scope="col" className="num">Historical cost</th>
            <th scope="col" className="num">Would-have cost</th>
            {bench ? (
              <>
                <th scope="col" className="num">{report.equivalentLabel}</th>
                <th scope="col" className="num">Tokens saved</th>
                <th scope="col" className="num">% saved</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name}>
              <th scope="row">{label(r.name)}</th>
              <td className="num">{r.calls.toLocaleString('en-US')}</td>
              <td className="num">{formatTokens(r.historicalCost)}</td>
              <td className="num">{formatTokens(r.wouldHaveCost)}</td>
              {bench ? (
                <>
                  <td className="num">{formatTokens(r.equivalentBurn ?? '0')}</td>
                  <td className="num">{formatTokens(r.tokensSaved ?? '0')}</td>
                  <td className="num">{r.percentSavedBps === null ? '—' : formatBps(r.percentSavedBps)}</td>
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AdvisoryReportView({ report, onExport, exporting }: { report: AdvisoryReport; onExport: () => void; exporting: boolean }) {
  const t = report.totals;
  const bench = report.benchmark !== null;
  const done = report.rows.items.filter((r) => r.status !== 'malformed');
  return (
    <>
      <div className="tiles" role="group" aria-label="Import totals">
        <Tile name="Calls classified" value={t.calls.toLocaleString('en-US')} sub={`${report.malformed.count.toLocaleString('en-US')} ${report.malformed.count === 1 ? 'line' : 'lines'} could not be used`} testId="tile-calls" />
        <Tile name="Historical cost" value={`${formatTokens(t.historicalCost)} tokens`} sub="What these calls cost" />
        <Tile name="Would-have cost" value={`${formatTokens(t.wouldHaveCost)} tokens`} sub="Routed by Switchboard" />
        {bench ? (
          <>
            <Tile name={report.equivalentLabel} value={`${formatTokens(t.equivalentBurn ?? '0')} tokens`} />
            <Tile name="Tokens saved" value={formatTokens(t.tokensSaved ?? '0')} testId="tile-saved" />
            <Tile name="% saved" value={t.percentSavedBps === null ? '—' : formatBps(t.percentSavedBps)} testId="tile-percent" />
          </>
        ) : null}
      </div>
      <Card
        title={bench ? 'Tokens saved by task family' : 'Breakdown by task family and complexity'}
        footer={<EngineFooter version={report.insightsEngineVersion} />}
        actions={
          <Button variant="secondary" onPress={onExport} isDisabled={exporting}>
            {exporting ? 'Preparing CSV…' : 'Download CSV'}
          </Button>
        }
      >
        {bench ? <SavingsByFamily report={report} /> : <BenchmarkPrompt />}
        <h3>By task family</h3>
        <BreakdownTable caption="Task family" rows={report.byTaskFamily.map((f) => ({ ...f, name: f.taskFamily }))} report={report} />
        <h3>By complexity</h3>
        <BreakdownTable caption="Complexity" rows={report.byComplexity.map((f) => ({ ...f, name: f.complexity }))} report={report} />
      </Card>
      {report.malformed.count > 0 ? (
        <Card title={`Lines that could not be used (${report.malformed.count.toLocaleString('en-US')})`}>
          <p className="muted">They are left out of every figure above. The CSV lists all of them.</p>
          <ul className="advisory-malformed">
            {report.malformed.items.slice(0, 20).map((m) => (
              <li key={m.line}>
                <strong>Line {m.line}:</strong> {m.error}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card title="First calls">
        <div className="table-wrap">
          <table className="table">
            <caption className="sr-only">First calls of the import</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Prompt</th>
                <th scope="col">Task family</th>
                <th scope="col">Complexity</th>
                <th scope="col">Would route to</th>
                <th scope="col" className="num">Historical cost</th>
                <th scope="col" className="num">Would-have cost</th>
                {bench ? <th scope="col" className="num">Tokens saved</th> : null}
              </tr>
            </thead>
            <tbody>
              {done.slice(0, 25).map((r) => (
                <tr key={r.line}>
                  <td>{r.line}</td>
                  <td>{r.promptExcerpt}</td>
                  <td>{r.taskFamily ? label(r.taskFamily) : 'Pending'}</td>
                  <td>{r.complexity ? label(r.complexity) : ''}</td>
                  <td>{r.modelClass ? `${label(r.modelClass)} class` : ''}</td>
                  <td className="num">{r.historicalCost ? formatTokens(r.historicalCost) : ''}</td>
                  <td className="num">{r.wouldHaveCost ? formatTokens(r.wouldHaveCost) : ''}</td>
                  {bench ? <td className="num">{r.tokensSaved ? formatTokens(r.tokensSaved) : ''}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </>
  );
}
