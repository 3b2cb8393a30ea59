/**
 * The largest request body each server of ours reads, one constant per
 * server so that a limit says whose it is. A body past its server's limit is
 * refused with 413, unread past the limit (docs/security.md).
 */

/** The webhook intake's: providers send events of a few KB; 256 KB leaves room for the largest we know. */
export const INTAKE_MAX_BODY_BYTES = 256 * 1024;

/** The builder API's: a draft configuration or an options query is a few KB. */
export const BUILDER_MAX_BODY_BYTES = 64 * 1024;

/** MCP over HTTP's: the MCP SDK's own cap on a JSON-RPC message (4 MiB), kept for the messages we read. */
export const MCP_MAX_BODY_BYTES = 4 * 1024 * 1024;
