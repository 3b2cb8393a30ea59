/**
 * src/'s folders in layers, lowest first (ARCHITECTURE.md, "Inside src/"): a
 * folder imports only folders of lower layers, type imports included, and
 * folders of one layer never import each other. `index.ts`, the public API,
 * is the top. test/house-rules.test.ts holds the imports to it, and
 * test/docs/architecture-map.test.ts holds ARCHITECTURE.md's table to it.
 */
export const SRC_LAYERS: readonly (readonly string[])[] = [
  ['values'],
  ['errors'],
  ['model'],
  ['mapping', 'peers', 'disk'],
  ['telemetry'],
  ['http'],
  ['server'],
  ['store'],
  ['step'],
  ['connection', 'coordination'],
  ['runtime'],
  ['options', 'triggers'],
  ['tenants', 'catalog'],
  ['kit'],
  ['agents'],
  ['mcp'],
  ['builder', 'eval'],
  ['index.ts'],
];
