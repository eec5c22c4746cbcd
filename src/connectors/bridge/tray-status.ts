// What the tray menu says, read with the bridge's signed-in session from the same customer API the
// web app's overview uses (so a member's bridge shows it too, no service key needed):
//   Balance      GET /api/tenant/wallet → balance (tokens, 1 token = 1 USD micro, D1)
//   Runway       the same answer's runway (days at the last 7 days' burn), worded like /overview
//   Saved today  today's point of the savings chart (GET /api/tenant/insights/savings?window=7):
//                <Provider>-equivalent burn minus service burn, in Tokens saved (spec §1); with no
//                benchmark provider chosen it says to choose one, never a made-up 0.
import { tokens } from '../mcp/server.ts';
import type { BridgeSession } from './bridge-session.ts';
import type { TrayLines } from './tray.ts';

interface Wallet {
  balance: string;
  runway: number | null;
}
interface Savings {
  benchmark: { brand: string } | null;
  series: Array<{ day: string; serviceBurnMicros: string; equivalentBurnMicros: string | null }>;
}

/** Runway as /overview words it (web/src/components/fns/money.ts formatRunway). */
export function runwayText(days: number | null): string {
  if (days === null) return 'Runway: no burn in the last 7 days';
  if (days >= 3650) return 'Runway: over 10 years';
  return `Runway: ${days.toFixed(1)} days`;
}

export function trayLines(w: Wallet, sv: Savings): TrayLines {
  const today = sv.series.at(-1);
  let savings: string;
  if (!sv.benchmark) savings = 'Saved today: choose a benchmark provider on Billing';
  else {
    const saved = BigInt(today?.equivalentBurnMicros ?? '0') - BigInt(today?.serviceBurnMicros ?? '0');
    savings = `Saved today: ${tokens(saved.toString())} vs ${sv.benchmark.brand}`;
  }
  const balance = `Balance: ${tokens(w.balance)}`;
  const runway = runwayText(w.runway);
  return { balance, runway, savings, tooltip: `${balance}\n${runway}\n${savings}` };
}

export async function readTrayLines(session: BridgeSession): Promise<TrayLines> {
  const [w, sv] = await Promise.all([session.get<Wallet>('/api/tenant/wallet'), session.get<Savings>('/api/tenant/insights/savings?window=7')]);
  return trayLines(w, sv);
}
