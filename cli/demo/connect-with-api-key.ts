import type { Connection } from '../../src/model/connection.js';
import type { DemoContext } from './demo-context.js';

/**
 * Stores an API-key connection to one of the sandbox's emulators in the
 * demo's in-memory store and says how many credits the key holds.
 */
export async function connectWithApiKey(
  demo: DemoContext,
  connection: {
    id: string;
    integration: string;
    label: string;
    mount: string;
    apiKey: string;
    credits: number;
  },
): Promise<void> {
  const now = Date.now();
  const stored: Connection = {
    id: connection.id,
    integration: connection.integration,
    label: connection.label,
    kind: 'api_key',
    fields: { baseUrl: demo.sandbox.baseUrl(connection.mount) },
    secrets: { apiKey: connection.apiKey },
    createdAt: now,
    updatedAt: now,
  };
  await demo.runtime.store.put(stored);
  demo.say(`connected "${connection.id}" with an API key holding ${connection.credits} credits`);
}
