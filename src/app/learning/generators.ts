// Synthetic case generators (spec §4 "Generators", D15), chosen by policy tier. Pure and
// deterministic: the same proposal, policy and window always give the same cases (so a batch that
// is generated again after a crash is the same batch), and no customer text is ever reused — cases
// come from the generator's own templates, aimed at the proposal's routing cell.
import { createHash } from 'node:crypto';
import type { CanonicalRequest } from '../../core/canonical/types.ts';
import { tableClassForBand, type RoutingOverride } from '../../core/routing/override.ts';
import { COMPLEXITIES, TASK_FAMILIES, type Complexity, type TaskFamily } from '../../core/routing/vocabulary.ts';
import { contentHash } from './hashing.ts';

export type GenerationMethod = 'template' | 'cheap_model' | 'frontier' | 'fixture';

export interface GeneratedCase {
  inputBlob: CanonicalRequest;
  expectedBlob: { taskFamily: string; complexity: string; modelClass: string };
  tags: string[];
  caseHash: string;
  generationMethod: GenerationMethod;
}

/** Requests by family: [task opener, objects]; openers carry the family's own vocabulary. */
const TEMPLATES: Record<TaskFamily, { tasks: string[]; objects: string[] }> = {
  coding: {
    tasks: ['Write a python function that', 'Fix the bug in my javascript code that', 'Refactor the typescript module that', 'Write a unit test for the function that'],
    objects: ['parses ISO dates', 'removes duplicates from a list', 'retries failed HTTP requests', 'validates email addresses', 'merges two sorted arrays', 'reads a config file'],
  },
  writing: {
    tasks: ['Write a blog post about', 'Draft an email to my team about', 'Rewrite this paragraph about', 'Write a short story about'],
    objects: ['our product launch', 'a rainy morning', 'the office move', 'learning to cook', 'a lost umbrella', 'the new schedule'],
  },
  research: {
    tasks: ['Explain the history of', 'Compare the evidence on', 'Give an overview of the research on', 'Explain why experts disagree about'],
    objects: ['remote work', 'solar power', 'the printing press', 'urban cycling', 'sleep and memory', 'microfinance'],
  },
  'data-analysis': {
    tasks: ['Analyze this csv dataset of', 'Compute the average and median of', 'Find outliers in the spreadsheet of', 'Plot the distribution of'],
    objects: ['monthly sales', 'response times', 'customer ages', 'daily signups', 'support tickets', 'order values'],
  },
  math: {
    tasks: ['Solve the equation for', 'Calculate the probability of', 'Compute the derivative of', 'Solve this algebra problem about'],
    objects: ['x squared plus 3x', 'two dice summing to 7', 'a rising ball', 'a train schedule', 'compound interest', 'a fair coin'],
  },
  summarization: {
    tasks: ['Summarize the key points of', 'Give me a tldr of', 'Condense into a summary', 'Recap the takeaways of'],
    objects: ['this meeting transcript', 'the quarterly report', 'this news article', 'the project update', 'the customer call', 'this chapter'],
  },
  translation: {
    tasks: ['Translate into French', 'Translate into Spanish', 'Translate into German', 'Translate into Japanese'],
    objects: ['our welcome message', 'the store opening hours', 'this product description', 'the meeting invite', 'a thank-you note', 'the safety notice'],
  },
  extraction: {
    tasks: ['Extract the fields as json from', 'Parse the entities in', 'Extract structured data from', 'Classify the sentiment of'],
    objects: ['this invoice', 'the receipt below', 'this support email', 'the shipping label', 'this product review', 'the order form'],
  },
  conversation: {
    tasks: ['Hi, what do you think about', 'Hello! Any advice on', 'Hey, can you recommend', 'Thanks! What is your opinion on'],
    objects: ['weekend plans', 'a good book', 'learning guitar', 'staying motivated', 'a rainy day', 'houseplants'],
  },
};

/** Wording that moves a request's complexity, per target level (the classifier's own cues, D12). */
const MODIFIERS: Record<Complexity, string[]> = {
  low: ['Briefly:', 'Quick one:', 'In one sentence:'],
  medium: ['', 'Please help:', 'Step through it:'],
  high: ['Give a detailed, thorough and rigorous answer, covering edge cases and tradeoffs:', 'In depth, with a comprehensive analysis:', 'Design a complete, production-ready solution:'],
};

const SUFFIXES = ['', ' Keep it simple.', ' Explain your reasoning.'];

/** Deterministic permutation of 0..n-1 from a seed (Fisher–Yates over sha256 bytes). */
function permutation(n: number, seed: string): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  let pool = createHash('sha256').update(seed).digest();
  let k = 0;
  const next = (): number => {
    if (k + 4 > pool.length) {
      pool = createHash('sha256').update(pool).digest();
      k = 0;
    }
    const v = pool.readUInt32BE(k);
    k += 4;
    return v;
  };
  for (let i = n - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx;
}

export function requestOf(text: string): CanonicalRequest {
  return { shape: 'openai', model: 'synthetic', messages: [{ role: 'user', content: [{ type: 'text', text }] }], stream: false };
}

/** The cell a proposal aims at: its family and complexity, and the class it would route them to. */
export function targetOf(o: RoutingOverride): { family: TaskFamily; complexity: Complexity; modelClass: string } {
  if (o.kind === 'class') return { family: o.taskFamily, complexity: o.complexity, modelClass: o.toClass };
  // Endpoint preferences keep the class: aim at the first cell the default band serves with it, so
  // replay checks the preference reaches that class's traffic.
  for (const family of TASK_FAMILIES) {
    for (const complexity of COMPLEXITIES) {
      if (tableClassForBand(family, complexity, 'default') === o.modelClass) return { family, complexity, modelClass: o.modelClass };
    }
  }
  return { family: TASK_FAMILIES[0], complexity: 'high', modelClass: o.modelClass };
}

function make(text: string, target: ReturnType<typeof targetOf>, method: GenerationMethod, tags: string[]): GeneratedCase {
  const inputBlob = requestOf(text);
  return {
    inputBlob,
    expectedBlob: { taskFamily: target.family, complexity: target.complexity, modelClass: target.modelClass },
    tags,
    caseHash: contentHash(inputBlob),
    generationMethod: method,
  };
}

/** Tier A: template permutations for the proposal's cell, cost 0, at most maxCases (spec §4). */
export function generateTierA(override: RoutingOverride, maxCases: number, seed: string): GeneratedCase[] {
  const target = targetOf(override);
  const t = TEMPLATES[target.family];
  const combos: Array<[string, string, string, string]> = [];
  for (const m of MODIFIERS[target.complexity]) for (const task of t.tasks) for (const obj of t.objects) for (const s of SUFFIXES) combos.push([m, task, obj, s]);
  const order = permutation(combos.length, `tierA:${seed}`);
  const out: GeneratedCase[] = [];
  for (const i of order) {
    if (out.length >= maxCases) break;
    const [m, task, obj, s] = combos[i];
    out.push(make(`${m ? `${m} ` : ''}${task} ${obj}.${s}`, target, 'template', [target.family, target.complexity, 'tier-a']));
  }
  return out;
}

/**
 * Tier B in mock mode: what a cheap model's paraphrases of Tier A seeds look like, made without a
 * model (deterministic rewordings). Live mode sends the same seeds to a cheap upstream model.
 */
export function mockParaphrases(seeds: readonly GeneratedCase[], override: RoutingOverride): GeneratedCase[] {
  const target = targetOf(override);
  const frames = ['Could you help me with this? ', 'I need a hand. ', 'For a project at work: ', 'Question from a colleague: '];
  return seeds.map((c, i) => {
    const text = (c.inputBlob.messages[0].content[0] as { text: string }).text;
    return make(`${frames[i % frames.length]}${text}`, target, 'cheap_model', [target.family, target.complexity, 'tier-b', 'mock']);
  });
}

export function paraphraseOf(text: string, override: RoutingOverride): GeneratedCase {
  const target = targetOf(override);
  return make(text, target, 'cheap_model', [target.family, target.complexity, 'tier-b', 'live']);
}

export class TierCDisabledError extends Error {
  readonly code = 'tier_c_disabled';
}

/**
 * Tier C (frontier-model generation) is disabled in Phase 2 (lock 8, the fourth refusal): this
 * generator fails on every call, whatever the policy says and whoever calls it.
 */
export function generateTierC(): never {
  throw new TierCDisabledError('Tier C synthetic generation is disabled in Phase 2 (lock 8)');
}
