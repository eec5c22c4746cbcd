// Service burn against <Provider>-equivalent burn per day (spec §1). The amounts are plotted from
// their integer strings (a chart needs a coordinate; no amount is computed from it) and every
// label and tooltip is formatted from the strings themselves. With no benchmark provider the
// comparison is replaced by the prompt to choose one (vocabulary rule 2): never a made-up 0 %.
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Link } from 'react-router';
import type { SavingsSeries } from '../api/types.ts';
import { formatTokens } from './fns/money.ts';
import { compactTokens } from './fns/chart.ts';

export function BenchmarkPrompt() {
  return (
    <div className="prompt" role="note">
      <strong>Choose a benchmark provider to see your savings.</strong> Savings are measured against the provider you pick.{' '}
      <Link to="/billing#benchmark">Choose a benchmark provider</Link>
    </div>
  );
}

export function SavingsChart({ data }: { data: SavingsSeries }) {
  const hasBenchmark = data.benchmark !== null;
  const rows = data.series.map((d) => ({
    day: d.day,
    burn: Number(d.serviceBurnMicros),
    equivalent: d.equivalentBurnMicros === null ? null : Number(d.equivalentBurnMicros),
    burnText: formatTokens(d.serviceBurnMicros),
    equivalentText: d.equivalentBurnMicros === null ? null : formatTokens(d.equivalentBurnMicros),
  }));
  return (
    <figure className="chart" aria-label={`Service burn${hasBenchmark ? ` and ${data.equivalentLabel}` : ''} per day, last ${data.windowDays} days`}>
      {!hasBenchmark ? <BenchmarkPrompt /> : null}
      <div className="chart-box">
        <ResponsiveContainer width="100%" height={260}>
          <AreaChart data={rows} margin={{ top: 8, right: 16, left: 8, bottom: 0 }}>
            <CartesianGrid stroke="#e3e6ea" vertical={false} />
            <XAxis dataKey="day" tickFormatter={(d: string) => d.slice(5)} tick={{ fill: '#3d4450', fontSize: 12 }} />
            <YAxis tickFormatter={compactTokens} tick={{ fill: '#3d4450', fontSize: 12 }} width={56} />
            <Tooltip
              formatter={(_v, name, item) => {
                const p = item.payload as (typeof rows)[number];
                return [`${name === 'Service burn' ? p.burnText : p.equivalentText} tokens`, name];
              }}
            />
            <Legend />
            {hasBenchmark ? (
              <Area type="monotone" dataKey="equivalent" name={data.equivalentLabel} stroke="#8a5a00" fill="#f6e7c8" strokeWidth={2} isAnimationActive={false} />
            ) : null}
            <Area type="monotone" dataKey="burn" name="Service burn" stroke="#1f5fbf" fill="#d6e4fa" strokeWidth={2} isAnimationActive={false} />
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
