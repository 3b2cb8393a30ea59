import { expect } from 'vitest';
import type { SandboxOptions } from '../../../sandbox/index.js';
import type { RuntimeOptions } from '../../../src/runtime/runtime.js';
import type { StepInput } from '../../../src/step/step-lookups.js';
import { definedOnly } from '../../../src/values/defined-only.js';
import type createDeploymentStep from '../../../steps/deployments/create-deployment.js';
import { type SandboxFixture, sandboxFixture } from '../../support/sandbox-fixture.js';

export interface WireRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface DeploymentsFixture extends SandboxFixture {
  token: string;
  /** What reached the deployments emulator since the last `clearWire()`, API calls only. */
  wire(): WireRequest[];
  clearWire(): void;
  /**
   * Expects each call refused with an error like `refusal` before any request
   * reached the emulator: what a guard on input or on the embedder's
   * constraints promises. The wire is cleared before each call and checked after it.
   */
  expectRefusedUnsent(refusal: Record<string, unknown>, ...calls: (() => Promise<unknown>)[]): Promise<void>;
}

/** A sandbox on a manual clock and a deployments connection for the seeded user "ada". */
export async function deploymentsFixture(
  options: { sandbox?: SandboxOptions; runtime?: RuntimeOptions; teamId?: string; user?: number } = {},
): Promise<DeploymentsFixture> {
  const fx = await sandboxFixture({
    ...options,
    connections: (sandbox) => [
      {
        id: 'vercel-main',
        integration: 'deployments',
        label: 'Ada (sandbox)',
        kind: 'oauth2_no_refresh',
        fields: definedOnly({ baseUrl: sandbox.baseUrl('deployments'), teamId: options.teamId }),
        secrets: { accessToken: sandbox.deployments.issueToken(options.user ?? 1) },
      },
    ],
  });
  let seen = 0;
  const wire = () => fx.requests('deployments').slice(seen).map(wireRequest);
  const clearWire = () => {
    seen = fx.requests('deployments').length;
  };
  return {
    ...fx,
    token: fx.connection.secrets.accessToken!,
    wire,
    clearWire,
    async expectRefusedUnsent(refusal, ...calls) {
      for (const call of calls) {
        clearWire();
        await expect(call()).rejects.toMatchObject(refusal);
        expect(wire()).toEqual([]);
      }
    },
  };
}

function wireRequest(entry: {
  method: string;
  path: string;
  headers: WireRequest['headers'];
  rawBody: string;
}) {
  const url = new URL(entry.path, 'http://sandbox.invalid');
  let body: unknown;
  try {
    body = entry.rawBody === '' ? undefined : JSON.parse(entry.rawBody);
  } catch {
    body = entry.rawBody;
  }
  return { method: entry.method, path: url.pathname, query: url.searchParams, headers: entry.headers, body };
}

/** `METHOD /path` of each request, for compact assertions. */
export function lines(requests: WireRequest[]): string[] {
  return requests.map((request) => `${request.method} ${request.path}`);
}

/** A create_deployment of `project` with every setting: a branch at a commit, to production, build settings and meta. */
export function fullDeployment(project: string): StepInput<typeof createDeploymentStep> {
  return {
    project,
    branch: 'feature/checkout',
    commit_sha: 'a1b2c3d4e5f6',
    environment: 'production',
    configuration: { build_command: 'npm run build:prod', node_version: '20.x', framework: 'nextjs' },
    meta: { ticket: 'OPS-7' },
  };
}

/** Creates a deployment (of project web from main, unless `input` says otherwise) and returns its id. */
export async function newDeployment(
  fx: DeploymentsFixture,
  input: Record<string, unknown> = {},
): Promise<string> {
  const created = await fx.invoke('deployments.create_deployment', {
    project: 'web',
    branch: 'main',
    ...input,
  });
  return created.output.deployment.id;
}
