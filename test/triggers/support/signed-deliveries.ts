import { setTimeout as sleep } from 'node:timers/promises';
import { signTicketing, ticketStatusEvent } from '../trigger-fixtures.js';

/** The one subscription the hand-off tests' deliveries are signed for. */
export const SUBSCRIPTION = 'sub_00000000000000f1';

/** One signed delivery of a ticket status change; the answer as `<status> <status field>`, or the error. */
export async function deliverOnce(base: string, eventId: string): Promise<string> {
  const body = JSON.stringify(ticketStatusEvent({ id: eventId, time: new Date().toISOString() }));
  try {
    const response = await fetch(`${base}/hooks/${SUBSCRIPTION}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signTicketing(body, new Date().toISOString()) },
      body,
    });
    return `${response.status} ${((await response.json()) as { status: string }).status}`;
  } catch (error) {
    return `no answer (${(error as Error).message})`;
  }
}

/** The provider retrying until it gets a 2xx, every half second, for at most `budgetMs`; every answer. */
export async function deliverAsProvider(base: string, eventId: string, budgetMs: number): Promise<string[]> {
  const answers: string[] = [];
  const started = Date.now();
  for (;;) {
    const answer = await deliverOnce(base, eventId);
    answers.push(answer);
    if (answer.startsWith('2') || Date.now() - started > budgetMs) return answers;
    await sleep(500);
  }
}
