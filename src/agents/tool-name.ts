import { InputError } from '../errors/index.js';

/**
 * The one form of tool name every agent runtime accepts: OpenAI, Anthropic,
 * MCP clients (Cursor, Claude) and Gemini all take `[a-zA-Z0-9_-]{1,64}`,
 * and some refuse the dot a step id carries.
 */
export const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** Integration ids and step names are snake_case, so a double underscore never occurs in either half. */
const SEPARATOR = '__';

/** A major named in a tool name: `ticketing__list_tickets__v1` is `ticketing.list_tickets@1`. */
const MAJOR_SUFFIX = /__v([1-9]\d{0,5})$/;

/**
 * `ticketing.create_ticket` -> `ticketing__create_ticket`; a reference to a
 * major, `ticketing.list_tickets@1` -> `ticketing__list_tickets__v1` (a tool
 * name cannot hold `@`).
 */
export function toolNameOf(stepId: string): string {
  const versioned = /^(.*)@([1-9]\d{0,5})$/.exec(stepId);
  const id = versioned ? versioned[1]! : stepId;
  const at = id.indexOf('.');
  const name = `${id.slice(0, at)}${SEPARATOR}${id.slice(at + 1)}${versioned ? `${SEPARATOR}v${versioned[2]}` : ''}`;
  if (at < 1 || !toolNamePattern.test(name) || id.includes(SEPARATOR)) {
    throw new Error(`Step id "${stepId}" has no tool name of the form [a-zA-Z0-9_-]{1,64}.`);
  }
  return name;
}

/** `ticketing__create_ticket` -> `ticketing.create_ticket` (and `...__v1` -> `...@1`): the reverse of `toolNameOf`. */
export function stepIdOf(toolName: string): string {
  const at = toolName.indexOf(SEPARATOR);
  if (at < 1 || !toolNamePattern.test(toolName)) {
    throw new InputError(`"${toolName}" is not a toolsteps tool name (integration__step_name).`, [
      { path: 'name', message: 'not a tool name' },
    ]);
  }
  const major = MAJOR_SUFFIX.exec(toolName);
  const base = major ? toolName.slice(0, major.index) : toolName;
  return `${base.slice(0, at)}.${base.slice(at + SEPARATOR.length)}${major ? `@${major[1]}` : ''}`;
}
