// One hand-written request: a single user text, or a thread (user, assistant, user, ...); or
// either of those under a system prompt that carries the task itself (apps that put the
// instruction in the system prompt and send only the material as the user turn).
export type Turns = string | readonly string[];
export type Item = Turns | { readonly sys: string; readonly turns: Turns };
export interface FamilyItems {
  low: readonly Item[];
  medium: readonly Item[];
  high: readonly Item[];
}
