/**
 * The semver range of the MCP SDK this package is written against. Its own
 * module, away from the loader whose inferred types name the SDK, so the
 * published declarations of `toolsteps/mcp` compile without the SDK.
 */
export const MCP_SDK_RANGE = '^1.32.2';
