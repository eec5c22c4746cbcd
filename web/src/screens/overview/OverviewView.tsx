// /overview, pure: the five tiles, the savings chart with its 7/30/90-day toggle, the live feed.
import { Link } from 'react-router';
import { ToggleButton, ToggleButtonGroup } from 'react-aria-components';
import type { ActivityItem, Overview, SavingsSeries } from '../../api/types.ts';
import { Card, EngineFooter, Loading } from '../../components/ui.tsx';
import { SavingsChart } from '../../components/SavingsChart.tsx';
import { formatBps, formatRunway, formatTokens, formatUsd } from '../../components/fns/money.ts';
import { formatWhen } from '../../components/fns/dates.ts';
import { feedDetail } from './fns/feed.ts';

function Tile({ label, value, sub, testId }: { label: string; value: React.ReactNode; sub?: React.ReactNode; testId: string }) {
  return (
    <div className="tile" data-testid={testId}>
      <div className="tile-label">{label}</div>
      <div className="tile-value">{value}</div>
      {sub ? <div className="tile-sub">{sub}</div> : null}
    </div>
  );
}

const ChooseBenchmark = () => <Link to="/billing#benchmark">Choose a benchmark provider</Link>;

export function Tiles({ o }: { o: Overview }) {
  const t = o.tiles;
  const runway = formatRunway(t.runway);
  return (
    <div className="tiles" role="group" aria-label="Key figures">
      <Tile testId="tile-balance" label="Wallet balance" value={`${formatTokens(t.walletBalance.tokens)} tokens`} sub={`≈ ${formatUsd(t.walletBalance.tokens)}`} />
      <Tile testId="tile-saved" label="Tokens saved (30 days)" value={t.tokensSaved30d === null ? <ChooseBenchmark /> : formatTokens(t.tokensSaved30d)} sub={o.benchmark ? `against ${o.benchmark.brand}` : undefined} />
      <Tile testId="tile-percent" label="% saved (30 days)" value={t.percentSaved30dBps === null ? <ChooseBenchmark /> : formatBps(t.percentSaved30dBps)} sub={o.benchmark ? `of ${o.equivalentLabel}` : undefined} />
      <Tile testId="tile-burn" label="Service burn (30 days)" value={`${formatTokens(t.serviceBurn30d)} tokens`} />
      <Tile testId="tile-runway" label="Runway" value={runway ?? 'No recent burn'} sub={runway ? 'at the last 7 days’ burn' : 'nothing spent in the last 7 days'} />
    </div>
  );
}

export function WindowToggle({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <ToggleButtonGroup
      aria-label="Chart period"
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={(k) => onChange(String([...k][0]))}
      className="toggles"
    >
      {['7', '30', '90'].map((w) => (
        <ToggleButton key={w} id={w} className="toggle">
          {w} days
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

export function Feed({ items, live }: { items: ActivityItem[]; live: boolean }) {
  return (
    <>
      <p className="muted" role="status" aria-live="polite">
        {live ? <span className="live-dot" aria-hidden="true" /> : null}
        {live ? 'Live: new activity appears here as it happens.' : 'Connecting to live updates…'}
      </p>
      {items.length === 0 ? (
        <p>No activity yet. Calls through Switchboard and top-ups will show here.</p>
      ) : (
        <ol className="feed" aria-label="Latest activity" data-testid="feed">
          {items.map((i) => (
            <li key={`${i.kind}-${i.id}`} className={`feed-${i.kind}`}>
              <span className="feed-label">{i.label}</span>
              <span className="feed-detail">{feedDetail(i)}</span>
              <time dateTime={i.at}>{formatWhen(i.at)}</time>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

export function OverviewView(p: { overview: Overview; savings: SavingsSeries | undefined; window: string; onWindow: (w: string) => void; live: boolean }) {
  const o = p.overview;
  return (
    <>
      <h1>Overview</h1>
      <Tiles o={o} />
      <Card
        title={o.benchmark ? `Service burn vs ${o.equivalentLabel}` : 'Service burn'}
        actions={<WindowToggle value={p.window} onChange={p.onWindow} />}
        footer={<EngineFooter version={(p.savings ?? o).insightsEngineVersion} />}
      >
        {p.savings ? <SavingsChart data={p.savings} /> : <Loading what="the chart" />}
      </Card>
      <Card title="Activity">
        <Feed items={o.activity} live={p.live} />
      </Card>
    </>
  );
}
