import { NotFoundError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import type { ConnectionStore } from '../store/connection-store.js';

/** A connection as an agent may see it: its id and label, never a field or a secret. */
export interface ConnectionOption {
  id: string;
  label: string | undefined;
}

/** The connections of each integration an agent may use, by integration id. */
export type ConnectionChoices = ReadonlyMap<string, readonly ConnectionOption[]>;

/**
 * Reads the store once and groups its connections by integration. A pinned
 * id leaves its integration with that one connection; an unknown pinned id
 * is an error, since serving tools against a connection that is not there
 * would fail on every call.
 */
export async function loadConnectionChoices(
  store: ConnectionStore,
  pinned: readonly string[] = [],
): Promise<ConnectionChoices> {
  const all = await store.list();
  const choices = new Map<string, ConnectionOption[]>();
  for (const connection of all) {
    const list = choices.get(connection.integration) ?? [];
    list.push(optionOf(connection));
    choices.set(connection.integration, list);
  }
  for (const id of pinned) {
    const connection = all.find((candidate) => candidate.id === id);
    if (!connection) {
      throw new NotFoundError(
        `No connection with id "${id}" to pin. List them with: toolsteps connections list.`,
        { fields: [{ path: 'connection', message: 'unknown connection id' }] },
      );
    }
    choices.set(connection.integration, [optionOf(connection)]);
  }
  for (const list of choices.values()) list.sort((a, b) => a.id.localeCompare(b.id));
  return choices;
}

function optionOf(connection: Connection): ConnectionOption {
  return { id: connection.id, label: connection.label };
}

/** A stable text of the choices: when it changes, the tool list an agent sees has changed. */
export function choicesSignature(choices: ConnectionChoices): string {
  return JSON.stringify([...choices.entries()].sort(([a], [b]) => a.localeCompare(b)));
}
