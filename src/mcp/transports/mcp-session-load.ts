/**
 * How many server-and-transport pairs an HTTP server holds: client sessions,
 * and initializes being answered. Its own module, away from the sessions
 * table whose types name the MCP SDK, so the published declarations compile
 * without the SDK.
 */
export interface McpSessionLoad {
  sessions: number;
  starting: number;
}
