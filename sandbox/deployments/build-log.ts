import type { DeploymentRecord } from './deployments-state.js';

/** One line of a build log, as the provider's events endpoint answers it (the `payload` shape). */
export interface BuildLogEvent {
  type: 'command' | 'stdout' | 'stderr' | 'delimiter';
  created: number;
  payload: {
    deploymentId: string;
    id: string;
    date: number;
    serial: string;
    text: string;
    info: { type: 'build'; name: string; entrypoint: string };
  };
}

/** What a build prints between its command and its end, spread over the building phase. */
const BUILD_OUTPUT = [
  '> build',
  '> next build',
  'Creating an optimized production build ...',
  'Compiled successfully',
  'Collecting page data ...',
  'Generating static pages (12/12)',
  'Finalizing page optimization ...',
];

type Line = [offsetMs: number, type: BuildLogEvent['type'], text: string];

/** Every line the build will print, timed from its creation; cut by the clock and by a cancel. */
function plannedLines(deployment: DeploymentRecord): Line[] {
  const { queuedMs, initializingMs, buildingMs } = deployment.timeline;
  const building = queuedMs + initializingMs;
  const done = building + buildingMs;
  const ref = typeof deployment.gitSource?.ref === 'string' ? deployment.gitSource.ref : 'main';
  const extra = deployment.extraLog ?? [];
  const step = buildingMs / (BUILD_OUTPUT.length + 1);
  return [
    [queuedMs, 'stdout', 'Running build in Washington, D.C., USA (East) – iad1'],
    [queuedMs + 1, 'stdout', `Cloning ${deployment.name} (Branch: ${ref})`],
    [queuedMs + 2, 'stdout', 'Cloning completed: 412.000ms'],
    [building, 'command', 'Running "npm run build"'],
    // Lines a test added, 1 ms apart right after the command, then the usual output.
    ...extra.map((text, index): Line => [building + 1 + index, 'stdout', text]),
    ...BUILD_OUTPUT.map(
      (text, index): Line => [building + extra.length + 1 + Math.round(step * (index + 1)), 'stdout', text],
    ),
    ...(deployment.fails
      ? ([[done, 'stderr', 'Error: Command "npm run build" exited with 1']] as Line[])
      : ([
          [done, 'stdout', 'Build Completed in /vercel/output'],
          [done + 1, 'stdout', 'Deploying outputs...'],
          [done + 2, 'stdout', 'Deployment completed'],
        ] as Line[])),
  ];
}

/**
 * A deployment's build log as of `now`: the lines printed so far, each at
 * its own millisecond. A cancelled build stops at its cancel with a last
 * line saying so; a blocked one never built and has none.
 */
export function buildLog(deployment: DeploymentRecord, now: number): BuildLogEvent[] {
  if (deployment.blockedReason !== undefined) return [];
  const end = Math.min(now, deployment.canceledAt ?? Number.POSITIVE_INFINITY);
  const lines = plannedLines(deployment)
    .map(([offset, type, text]): Line => [deployment.createdAt + offset, type, text])
    .filter(([at]) => at <= end);
  if (deployment.canceledAt !== undefined && deployment.canceledAt <= now) {
    lines.push([deployment.canceledAt + 1, 'stdout', 'The build was canceled.']);
  }
  const buildId = `bld_${deployment.id.slice(4, 16).toLowerCase()}`;
  return lines.map(([at, type, text], index) => ({
    type,
    created: at,
    payload: {
      deploymentId: deployment.id,
      id: `${deployment.id}-${index}`,
      date: at,
      serial: `${at}-${String(index).padStart(6, '0')}`,
      text,
      info: { type: 'build', name: buildId, entrypoint: '.' },
    },
  }));
}

/**
 * The page the events endpoint answers: `direction` forward (oldest first,
 * from `since`) or backward (newest first, down to `until`), at most `limit`.
 * `since` and `until` include the millisecond they name (an assumption: the
 * description does not say).
 */
export function eventsPage(
  events: BuildLogEvent[],
  query: { direction: 'forward' | 'backward'; limit: number; since?: number; until?: number },
): BuildLogEvent[] {
  const inRange = events.filter(
    (event) =>
      (query.since === undefined || event.created >= query.since) &&
      (query.until === undefined || event.created <= query.until),
  );
  const ordered = query.direction === 'backward' ? inRange.reverse() : inRange;
  return query.limit < 0 ? ordered : ordered.slice(0, query.limit);
}
