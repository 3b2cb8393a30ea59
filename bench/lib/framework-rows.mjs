const ROUTES = {
  webhook: 'POST /hooks/:id, 2 KB raw body, HMAC checked (the intake)',
  search: 'GET /v1/steps?q=, bearer, 6 KB JSON (the builder)',
  options: 'POST /v1/steps/:id/options, bearer, zod-checked JSON body (the builder)',
};

/**
 * The framework figure (issue 35): per kind of request, the server CPU per
 * request of Fastify and Hono against `node:http` by hand (today's servers'
 * way), with requests per second beside it. No goal: the figures that chose
 * the framework, kept so the choice can be checked again.
 */
export function frameworkRows(row, measured) {
  const { sizes, results, skipped } = measured;
  row(
    `framework: server CPU per request, ${sizes.rounds} rounds of ${sizes.count}, ${sizes.concurrency} in flight`,
    '',
    'node:http by hand',
    '',
    '',
  );
  for (const [kind, sides] of Object.entries(results)) {
    const bare = sides.node;
    for (const [side, figures] of Object.entries(sides)) {
      if (side === 'node') continue;
      const failed = figures.failed + bare.failed;
      row(
        `  ... ${side}, ${ROUTES[kind]}${failed ? ` (failed ${figures.failed} / ${bare.failed})` : ''}`,
        `${figures.cpuUs.toFixed(0)} us, ${figures.perSecond.toFixed(0)}/s`,
        `${bare.cpuUs.toFixed(0)} us, ${bare.perSecond.toFixed(0)}/s`,
        `${(figures.cpuUs / bare.cpuUs).toFixed(2)}x`,
        '',
      );
    }
  }
  for (const { side, reason } of skipped) row(`  ... ${side} not measured: ${reason}`, '', '', '', '');
}
