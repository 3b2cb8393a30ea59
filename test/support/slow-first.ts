import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first: each mostly waits on child
 * processes it starts (the packed package's build and install, the
 * benchmark, the CLI under faults, worker fleets, Chromium). Started last,
 * one of them alone would hold the run open long after the other worker
 * ran out of files; started first, the short files fill the gaps beside
 * them. An order, never a condition: every file passes in any order.
 */
const SLOW_FIRST = [
  'test/package/published-package.test.ts',
  'test/package/outside-integration.test.ts',
  'test/bench/bench-smoke.test.ts',
  'test/triggers/hand-off-redis-outage.test.ts',
  'test/triggers/hand-off-faults.test.ts',
  'test/triggers/hand-off-forward-secret.test.ts',
  'test/coordination/many-workers-webhooks.test.ts',
  'test/coordination/many-workers-refresh.test.ts',
  'test/coordination/many-workers-quota.test.ts',
  'test/cli/code-cache.test.ts',
  'test/mcp/mcp-token.test.ts',
  'test/cli/listen-flood.test.ts',
  'test/ui/reference-builder.test.ts',
  'test/cli/cli-redis-stores.test.ts',
  'test/ui/sign-in-browser.test.ts',
  'test/mcp/mcp-catalogue.test.ts',
  'test/coordination/redis-errors.test.ts',
];

/**
 * After the slow files, each project's files together (vitest.config.ts): a
 * worker that stays is kept only while the next file in the queue is of its
 * own project, so a file of another project between two shared ones would
 * end the worker, and the next shared file would import everything again.
 * The short files that need a process of their own come last, filling the
 * workers' ends.
 */
const PROJECTS = ['shared', 'nock', 'own-process'];

/**
 * Vitest's own order (longest first by the last run's timings where this
 * checkout has them, the largest files first where not: a fresh clone), with
 * the known slow files moved ahead and the rest grouped by project.
 */
export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      if (index >= 0) return index;
      const project = PROJECTS.indexOf(spec.project.name);
      return SLOW_FIRST.length + (project < 0 ? PROJECTS.length : project);
    };
    const sorted = await super.sort(files);
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
