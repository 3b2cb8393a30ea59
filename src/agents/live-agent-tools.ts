import { AgentTools, type AgentToolsOptions } from './agent-tools.js';
import { choicesSignature } from './connection-choice.js';

/** The shortest interval between two looks at the connection store, so a watch can never spin. */
const MIN_WATCH_INTERVAL_MS = 250;

/**
 * The tools of a long-running server, reloaded when the connection store
 * changes (an account connected or removed while an agent is attached):
 * listeners hear of it once per change, so an MCP server can send
 * `notifications/tools/list_changed`.
 */
export class LiveAgentTools {
  private listeners = new Set<() => void>();
  private signature: string;

  private constructor(
    private readonly options: AgentToolsOptions,
    public current: AgentTools,
  ) {
    this.signature = choicesSignature(current.choices);
  }

  /** Loads the tools a first time; `refresh` then follows connection changes without restarting the agent. */
  static async load(options: AgentToolsOptions): Promise<LiveAgentTools> {
    return new LiveAgentTools(options, await AgentTools.load(options));
  }

  /** Calls `listener` after each change; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the store again; true (and listeners told) when the tools an agent sees have changed. */
  async refresh(): Promise<boolean> {
    const next = await AgentTools.load(this.options);
    const signature = choicesSignature(next.choices);
    if (signature === this.signature) return false;
    this.current = next;
    this.signature = signature;
    for (const listener of this.listeners) listener();
    return true;
  }

  /**
   * Looks at the store every `intervalMs` (at least 250 ms), one look at a
   * time; the timer never keeps the process alive. A failed look (a file
   * being written) keeps the current tools and tries again next time.
   * Returns the function that stops watching.
   */
  watch(intervalMs: number, onError: (error: unknown) => void = () => {}): () => void {
    let busy = false;
    const timer = setInterval(
      () => {
        if (busy) return;
        busy = true;
        this.refresh()
          .catch(onError)
          .finally(() => {
            busy = false;
          });
      },
      Math.max(intervalMs, MIN_WATCH_INTERVAL_MS),
    );
    timer.unref();
    return () => clearInterval(timer);
  }
}
