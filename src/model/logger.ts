/** Structured log lines. Callers never pass headers, bodies or secrets. */
export interface Logger {
  /** Detail for someone tracing one invocation (each attempt, each wait); off unless asked for. */
  debug(message: string, data?: Record<string, unknown>): void;
  /** What an operator wants in the normal log: a connection refreshed, a subscription made. */
  info(message: string, data?: Record<string, unknown>): void;
  /** Something recovered from that may need a look: a retry after a 5xx, a webhook refused. */
  warn(message: string, data?: Record<string, unknown>): void;
}

/** The default logger, so library code never checks whether one was given; embedders pass their own to see lines. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {} };

/** Keeps every line, for tests and for `--verbose` output. */
export class MemoryLogger implements Logger {
  readonly lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
  debug(message: string, data?: Record<string, unknown>): void {
    this.lines.push({ level: 'debug', message, ...(data ? { data } : {}) });
  }
  info(message: string, data?: Record<string, unknown>): void {
    this.lines.push({ level: 'info', message, ...(data ? { data } : {}) });
  }
  warn(message: string, data?: Record<string, unknown>): void {
    this.lines.push({ level: 'warn', message, ...(data ? { data } : {}) });
  }
}
