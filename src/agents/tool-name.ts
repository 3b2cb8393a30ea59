import { InputError } from '../errors/index.js';

/**
 * The one form of tool name every agent runtime accepts: OpenAI, Anthropic,
 * MCP clients (Cursor, Claude) and Gemini all take `[a-zA-Z0-9_-]{1,64}`,
 * and some refuse the dot a step id carries.
 */
export const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** Integration ids and step names are snake_case, so a double underscore never occurs in either half. */
const SEPARATOR = '__';

/** `ticketing.create_ticket` -> `ticketing__create_ticket`. */
export function toolNameOf(stepId: string): string {
  const at = stepId.indexOf('.');
  const name = `${stepId.slice(0, at)}${SEPARATOR}${stepId.slice(at + 1)}`;
  if (at < 1 || !toolNamePattern.test(name) || stepId.includes(SEPARATOR)) {
    throw new Error(`Step id "${stepId}" has no tool name of the form [a-zA-Z0-9_-]{1,64}.`);
  }
  return name;
}

/** `ticketing__create_ticket` -> `ticketing.create_ticket`: the reverse of `toolNameOf`. */
export function stepIdOf(toolName: string): string {
  const at = toolName.indexOf(SEPARATOR);
  if (at < 1 || !toolNamePattern.test(toolName)) {
    throw new InputError(`"${toolName}" is not a toolsteps tool name (integration__step_name).`, [
      { path: 'name', message: 'not a tool name' },
    ]);
  }
  return `${toolName.slice(0, at)}.${toolName.slice(at + SEPARATOR.length)}`;
}
