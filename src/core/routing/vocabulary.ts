// Routing vocabulary (D12): the task families and complexity levels Layer 1 classifies into.
export const TASK_FAMILIES = [
  'coding',
  'writing',
  'research',
  'data-analysis',
  'math',
  'summarization',
  'translation',
  'extraction',
  'conversation',
] as const;
export type TaskFamily = (typeof TASK_FAMILIES)[number];

export const COMPLEXITIES = ['low', 'medium', 'high'] as const;
export type Complexity = (typeof COMPLEXITIES)[number];

export const isTaskFamily = (v: unknown): v is TaskFamily =>
  typeof v === 'string' && (TASK_FAMILIES as readonly string[]).includes(v);
