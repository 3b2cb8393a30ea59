import type { EvalSession } from './eval-agent.js';

/** The task as a model reads it: the text, then the structured input as JSON. */
export function taskPrompt(task: EvalSession['task']): string {
  return task.input ? `${task.text}\n\nInput:\n${JSON.stringify(task.input, null, 2)}` : task.text;
}
