/** Structured log lines. Callers never pass headers, bodies or secrets. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
}

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
