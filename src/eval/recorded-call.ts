import type { ArmedFault } from './fault-arming.js';

/** One tool call as the harness saw it go through the invocation pipeline. */
export interface RecordedCall {
  /** 1-based, in the order the calls started. */
  index: number;
  step: string;
  access: 'read' | 'write' | 'destructive';
  /** The step input as the pipeline received it (the `connection` choice apart). */
  input: unknown;
  ok: boolean;
  /** The step output on success (cut to a readable size in reports). */
  output?: unknown;
  error?: {
    code: string;
    message: string;
    retryable: boolean;
    /** Whether the request may have reached the provider: `unknown` after an ambiguous failure. */
    outcome: string | null;
  };
  /** Requests the runtime sent for this call, and how many of them were its own retries. */
  attempts: number | null;
  retries: number | null;
  /** The runtime found an ambiguous write done at the provider (`meta.replay`), instead of writing again. */
  recovered: boolean;
  /** Credits the provider reported charged (null when it did not say; 0 for free steps). */
  credits: number;
  /** Milliseconds from the start of the run. */
  startedMs: number;
  durationMs: number;
  /** Faults the scenario armed just before this call. */
  faults: ArmedFault[];
}
