import * as z from 'zod';
import type { Registry } from '../catalog/registry.js';
import { InputError } from '../errors/index.js';
import type { Runtime } from '../runtime/runtime.js';
import type { AnyStep } from '../step/define-step.js';
import { latestMajor } from '../step/step-version.js';
import { versionFacts } from '../step/version-facts.js';
import type { ApiCall, RouteHandler } from './api-call.js';
import { ApiRefusal } from './api-refusal.js';
import type { DescribeQuery, OptionsRequest, SearchQuery } from './api-schemas.js';
import { personFields } from './connect-draft.js';
import { changesAfter } from './step-upgrade.js';
import { mayUseIntegration, requireConnection } from './tenant-guards.js';

const schemaOf = (type: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(type, { io, unrepresentable: 'any' }) as Record<string, unknown>;

/** A field's choices, as the registry's options source answers them. */
interface OptionsPage {
  items: { value: string | number | boolean; label: string; description?: string | undefined }[];
  next_cursor?: string | undefined;
  truncated: boolean;
}

/** A step's input schema as the registry describes it: generic, or specialised to a connection's account. */
interface DescribedInput {
  input: Record<string, unknown>;
  options: Record<string, { dependsOn: string[]; searchable: boolean; fixed: boolean }>;
  accountFields: { name: string; id: string | number; title: string; type: string }[];
}

/**
 * What the options work (issue 24) adds to the registry: a field's choices
 * and a step's schema specialised to a connection. Read where present, so
 * these routes use it as soon as the registry has it, and answer the
 * generic schema and a typed 501 until then.
 */
interface OptionsCapableRegistry {
  options?(
    runtime: Runtime,
    stepId: string,
    field: string,
    call: { connection?: string; query?: string; cursor?: string; input?: Record<string, unknown> },
  ): Promise<OptionsPage>;
  describe?(stepId: string, account?: { runtime: Runtime; connection: string }): Promise<DescribedInput>;
}

/** The step, when the token may use its integration; any other is unknown to this token, as the registry says. */
function stepFor(call: ApiCall, registry: Registry, id: string): AnyStep {
  const step = registry.requireStep(id);
  if (mayUseIntegration(call, step.integration.id)) return step;
  throw new InputError(`Unknown step "${id}".`, [{ path: 'step', message: 'unknown step id' }]);
}

const cost = (step: AnyStep) => step.credits?.basis ?? null;

const searchSteps: RouteHandler = async (call) => {
  const { q, limit } = call.query as z.output<typeof SearchQuery>;
  const { registry } = call.server.options;
  const hits = registry.search(q, 100).filter((hit) => mayUseIntegration(call, hit.step.integration.id));
  return {
    hits: hits.slice(0, limit).map(({ step, score }) => ({
      id: step.id,
      title: step.title,
      integration: step.integration.id,
      integrationTitle: step.integration.title,
      access: step.access,
      idempotent: step.idempotent,
      cost: cost(step),
      score,
    })),
  };
};

const describeStep: RouteHandler = async (call) => {
  const { connection } = call.query as z.output<typeof DescribeQuery>;
  const registry = call.server.options.registry;
  const step = stepFor(call, registry, call.params.stepId!);
  const extended = registry as unknown as OptionsCapableRegistry;
  if (connection !== undefined) await requireConnection(call, connection);
  const account = connection === undefined ? undefined : { runtime: call.tenant.runtime, connection };
  const described: DescribedInput = extended.describe
    ? await extended.describe(step.id, account)
    : { input: schemaOf(step.input, 'input'), options: {}, accountFields: [] };
  const specialised = extended.describe && connection !== undefined ? connection : null;
  const { deprecated, ...version } = versionFacts(step, registry);
  return {
    id: step.id,
    ...version,
    deprecated: deprecated ?? null,
    changes: changesAfter(registry.requireStep(version.majors[0]!), latestMajor(step)),
    title: step.title,
    integration: step.integration.id,
    description: step.description,
    agentDescription: step.agentDescription,
    access: step.access,
    idempotent: step.idempotent,
    cost: cost(step),
    input: described.input,
    output: schemaOf(step.output, 'output'),
    variables: { ...step.variables },
    examples: (step.examples ?? []).map((example) => ({ title: example.title, input: example.input })),
    connection: specialised,
    optionFields: described.options,
    accountFields: described.accountFields,
  };
};

const stepOptions: RouteHandler = async (call) => {
  const request = call.body as z.output<typeof OptionsRequest>;
  const registry = call.server.options.registry;
  const step = stepFor(call, registry, call.params.stepId!);
  if (request.connection !== undefined) await requireConnection(call, request.connection);
  const extended = registry as unknown as OptionsCapableRegistry;
  if (!extended.options) {
    throw new ApiRefusal(501, 'not_implemented', 'Field options are not available on this server yet.');
  }
  const { field, ...rest } = request;
  const page = await extended.options(call.tenant.runtime, step.id, field, rest);
  return { options: page.items, nextCursor: page.next_cursor ?? null, truncated: page.truncated };
};

const listIntegrations: RouteHandler = async (call) => {
  const { registry, connect = {} } = call.server.options;
  const integrations = registry.listIntegrations().filter((item) => mayUseIntegration(call, item.id));
  return {
    integrations: integrations.map((integration) => {
      const setting = connect[integration.id];
      const asked = personFields(integration, setting);
      const fields = integration.connection.fields.pick(
        Object.fromEntries(asked.map((key) => [key, true])) as never,
      );
      return {
        id: integration.id,
        title: integration.title,
        description: integration.description,
        status: integration.status ?? 'stable',
        connect: setting?.flow ?? null,
        fields: schemaOf(fields, 'input'),
      };
    }),
  };
};

export const catalogueRoutes = { searchSteps, describeStep, stepOptions, listIntegrations };
