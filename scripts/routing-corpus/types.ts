// One hand-written request: a single user text, or a thread (user, assistant, user, ...).
export type Item = string | readonly string[];
export interface FamilyItems {
  low: readonly Item[];
  medium: readonly Item[];
  high: readonly Item[];
}
