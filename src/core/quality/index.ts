// Quality: the inline QA check and escalation decision (D5), and Layer 3 rule derivation.
export * from './score.ts';
export * from './inline-check.ts';
export * from './instructions.ts';
export * from './language.ts';
export * from './json-schema.ts';
export * from './derive-rules.ts';
