import type { AnyStep } from '../step/define-step.js';

/** Which steps an agent is offered. The same filters for the MCP server and every SDK export. */
export interface ToolFilter {
  /** Only these integrations (ids); all when absent. */
  integrations?: readonly string[] | undefined;
  /** Only steps whose access is `read`: nothing the agent does can change a provider's state. */
  readOnly?: boolean | undefined;
  /**
   * Connection ids to pin: each one serves every step of its integration, so
   * the agent never chooses (and never sees the others).
   */
  connections?: readonly string[] | undefined;
  /**
   * Step references to pin (`ticketing.list_tickets@1`, `ticketing.create_ticket`):
   * only these steps are offered, each at the major it names (the latest for
   * a bare id), so an agent configured on major 1 keeps calling major 1
   * after the package moves to major 2 (an evaluation scenario offers just
   * what its task needs the same way). All steps at their latest when absent.
   */
  steps?: readonly string[] | undefined;
}

/** Whether a step is offered under the filter; `steps` is not read here: the pinned references are resolved to their steps (an alias or a major included) before. */
export function stepPassesFilter(step: AnyStep, filter: ToolFilter): boolean {
  if (filter.integrations && !filter.integrations.includes(step.integration.id)) return false;
  if (filter.readOnly && step.access !== 'read') return false;
  return true;
}
