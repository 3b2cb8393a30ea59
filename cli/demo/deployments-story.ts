import { isToolstepsError } from '../../src/errors/index.js';
import { connectWithOAuth } from './connect-with-oauth.js';
import type { DemoContext } from './demo-context.js';

/**
 * Connect through the real OAuth flow, deploy to production and as a
 * preview, list what is building, read the production build's log, cancel the preview while it builds, and
 * show the clear error an agent gets when it cancels it again.
 */
export async function deploymentsStory(demo: DemoContext): Promise<void> {
  demo.heading('Deployments: connect with OAuth, deploy, list, cancel');
  const tokens = await connectWithOAuth(demo, {
    id: 'acme-deploys',
    integration: 'deployments',
    label: 'Acme team (sandbox)',
    fields: { baseUrl: demo.sandbox.baseUrl('deployments'), teamId: 'team_acme' },
  });
  demo.say(
    `connected "acme-deploys" via authorization code + PKCE; long-lived token${tokens.refreshToken ? '' : ', no refresh token'}; every call carries teamId=team_acme`,
  );

  // Demo-speed builds: queued for a moment, then building for a minute, so there is something to cancel.
  const emulator = demo.sandbox.deployments;
  const usual = emulator.timeline;
  emulator.timeline = { queuedMs: 200, initializingMs: 100, buildingMs: 60_000 };
  try {
    const production = await demo.step<{ deployment: { id: string } }>(
      'deployments.create_deployment',
      'acme-deploys',
      { project: 'shop', branch: 'main', environment: 'production' },
    );
    const preview = await demo.step<{ deployment: { id: string } }>(
      'deployments.create_deployment',
      'acme-deploys',
      {
        project: 'shop',
        branch: 'feature/new-cart',
        configuration: { build_command: 'npm run build:preview' },
      },
      'environment preview: no target sent',
    );
    await demo.runtime.clock.sleep(400);
    await demo.step(
      'deployments.list_deployments',
      'acme-deploys',
      { project: 'shop', state: ['QUEUED', 'INITIALIZING', 'BUILDING'], limit: 10 },
      'what is building now',
    );
    await demo.step(
      'deployments.get_deployment_events',
      'acme-deploys',
      { deployment_id: production.output.deployment.id, tail: true, limit: 3 },
      'the build log so far',
    );
    const deploymentId = preview.output.deployment.id;
    await demo.step(
      'deployments.cancel_deployment',
      'acme-deploys',
      { deployment_id: deploymentId },
      'while building',
    );
    try {
      await demo.registry.invoke(demo.runtime, 'deployments.cancel_deployment', {
        connection: 'acme-deploys',
        input: { deployment_id: deploymentId },
      });
    } catch (error) {
      if (!isToolstepsError(error)) throw error;
      demo.say(`deployments.cancel_deployment (again) failed as it should: ${error.code}: ${error.message}`);
    }
    await showScopedRefusal(demo);
    await demo.step(
      'deployments.api_call',
      'acme-deploys',
      { method: 'GET', path: '/v9/projects/shop/env' },
      'any endpoint, token attached',
    );
  } finally {
    emulator.timeline = usual;
  }
}

/** With the connection scoped to one project, a step about another is refused before sending. */
async function showScopedRefusal(demo: DemoContext): Promise<void> {
  try {
    await demo.registry.invoke(demo.runtime, 'deployments.list_deployments', {
      connection: 'acme-deploys',
      input: { project: 'docs' },
      constraints: { projects: ['shop'] },
    });
  } catch (error) {
    if (!isToolstepsError(error)) throw error;
    demo.say(`scoped to project "shop", listing "docs" is refused: ${error.code}: ${error.message}`);
  }
}
