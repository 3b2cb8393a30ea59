/**
 * How the tools are offered. `flat`: one tool per step. `catalog`:
 * search_steps, describe_step, run_step. `auto`: the catalogue above 40
 * tools. Its own module, away from the server whose inferred types name the
 * MCP SDK, so the published declarations compile without the SDK.
 */
export type McpToolMode = 'auto' | 'flat' | 'catalog';
