import { addStats, type Exchange, NO_STATS, type Outgoing, type Send } from './exchange.js';
import type { Gate } from './gate.js';

/**
 * Holds a request at the connection's rate gate until its quota allows it,
 * then teaches the gate what the answers said: the first answer settles the
 * request the gate counted, later redirect hops only inform it, and a request
 * that got no answer at all is given back.
 */
export function withRateGate(send: Send, gate: Gate, signal?: AbortSignal): Send {
  return async (outgoing: Outgoing): Promise<Exchange> => {
    let waits: number;
    try {
      waits = await gate.acquire(signal);
    } catch (error) {
      return { ok: false, error, stats: NO_STATS };
    }
    let result: Exchange;
    try {
      result = await send(outgoing);
    } catch (error) {
      await gate.abandon();
      return { ok: false, error, stats: NO_STATS };
    }
    const [first, ...later] = result.stats.answers;
    if (result.stats.answers.length === 0) await gate.abandon();
    else {
      await gate.observe(first);
      for (const snapshot of later) await gate.learn(snapshot);
    }
    return { ...result, stats: addStats(result.stats, { rateLimitWaits: waits }) };
  };
}
