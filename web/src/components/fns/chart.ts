/** A chart axis tick: 1,200 → "1.2k", 3,400,000 → "3.4M" (axis labels only; values stay exact elsewhere). */
export function compactTokens(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${(v / 1e9).toFixed(1)}B`;
  if (a >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${(v / 1e3).toFixed(1)}k`;
  return String(v);
}
