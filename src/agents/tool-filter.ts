import type { AnyStep } from '../step/define-step.js';

/** Which steps an agent is offered. The same filters for the MCP server and every SDK export. */
export interface ToolFilter {
  /** Only these integrations (ids); all when absent. */
  integrations?: readonly string[] | undefined;
  /** Only these steps (ids); all of the integrations' when absent. An evaluation scenario offers just what its task needs. */
  steps?: readonly string[] | undefined;
  /** Only steps whose access is `read`: nothing the agent does can change a provider's state. */
  readOnly?: boolean | undefined;
  /**
   * Connection ids to pin: each one serves every step of its integration, so
   * the agent never chooses (and never sees the others).
   */
  connections?: readonly string[] | undefined;
}

export function stepPassesFilter(step: AnyStep, filter: ToolFilter): boolean {
  if (filter.integrations && !filter.integrations.includes(step.integration.id)) return false;
  if (filter.steps && !filter.steps.includes(step.id)) return false;
  if (filter.readOnly && step.access !== 'read') return false;
  return true;
}
