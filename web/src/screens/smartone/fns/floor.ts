// The quality floor in plain words (D5: a 0..1 score; below it, or with a high risk of made-up
// facts, an answer is retried one class up). People pick a level; the number stays secondary.

export interface FloorLevel {
  value: number;
  name: string;
  words: string;
}

export const FLOOR_LEVELS: FloorLevel[] = [
  { value: 0.4, name: 'Relaxed', words: 'Only clearly broken answers (empty, cut off, refused) are retried with a stronger model. Lowest cost.' },
  { value: 0.6, name: 'Balanced', words: 'Answers that also miss the format or the instructions you gave are retried with a stronger model. The default.' },
  { value: 0.75, name: 'Strict', words: 'Any answer that is not clearly good on accuracy, format and instructions is retried with a stronger model. Costs more when it happens.' },
  { value: 0.9, name: 'Highest', words: 'Only excellent answers pass; the rest are retried with a stronger model, up to twice. The highest cost.' },
];

/** The level a floor value belongs to, or a custom description for values set through the API. */
export function describeFloor(value: number): { name: string; words: string; custom: boolean } {
  const exact = FLOOR_LEVELS.find((l) => Math.abs(l.value - value) < 1e-9);
  if (exact) return { name: exact.name, words: exact.words, custom: false };
  const below = [...FLOOR_LEVELS].reverse().find((l) => l.value <= value) ?? FLOOR_LEVELS[0];
  return {
    name: `Custom (${value.toFixed(2)} on a 0–1 scale)`,
    words: `Set through the API; it is at least as demanding as "${below.name}": ${below.words.charAt(0).toLowerCase()}${below.words.slice(1)}`,
    custom: true,
  };
}

/** What a project's stage means to the person who owns it (D4). */
export const STAGE_WORDS: Record<string, string> = {
  onboarding: 'No tool has connected yet. Set one up on Integrations, or make a first call.',
  connected: 'A tool has connected; the first billed call makes the project live.',
  live: 'Calls are being routed and billed.',
  paused: 'The wallet or the monthly budget cannot cover calls. Top up, or raise the budget, and it goes live again.',
};
