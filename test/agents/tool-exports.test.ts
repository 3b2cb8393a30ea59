import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentTools } from '../../src/agents/agent-tools.js';
import { toAiSdkTools } from '../../src/agents/ai-sdk-tools.js';
import { anthropicToolResult, toAnthropicTools } from '../../src/agents/anthropic-tools.js';
import {
  openAIChatToolResult,
  openAIResponsesToolResult,
  toOpenAITools,
} from '../../src/agents/openai-tools.js';
import { stepIdOf, toolNameOf } from '../../src/agents/tool-name.js';
import type { Connection } from '../../src/model/connection.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../steps/index.js';
import { expectInputErrorNaming, MISFIT_CREATE_CALLS, sandboxPosts } from '../support/misfit-calls.js';
import { strictRuleViolations } from '../support/openai-strict-rules.js';
import { useSandboxAgentTools } from '../support/sandbox-agent-tools.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';
import { twoTurnModel } from '../support/two-turn-model.js';

const CANARY = 'canary-secret-7f3a9c1e5b';

/** One connection per integration, every secret the canary: enough to offer every step. */
function canaryConnections(): Connection[] {
  return createRegistry()
    .listIntegrations()
    .map((integration) => ({
      id: `${integration.id.replace(/_/g, '-')}-main`,
      integration: integration.id,
      label: `${integration.title} account`,
      kind: 'api_key' as const,
      fields: {},
      secrets: { apiKey: CANARY, accessToken: CANARY, refreshToken: CANARY },
      createdAt: 0,
      updatedAt: 0,
    }));
}

async function everyStepTools(): Promise<AgentTools> {
  const runtime = new Runtime({ store: new MemoryConnectionStore(canaryConnections()) });
  return AgentTools.load({ registry: createRegistry(), runtime });
}

describe('tool names', () => {
  it('map every step id to [a-zA-Z0-9_-]{1,64} and back', () => {
    for (const step of createRegistry().listSteps()) {
      const name = toolNameOf(step.id);
      expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(stepIdOf(name)).toBe(step.id);
    }
    expect(toolNameOf('ticketing.create_ticket')).toBe('ticketing__create_ticket');
  });
});

describe('exported schemas', () => {
  let tools: AgentTools;
  beforeAll(async () => {
    tools = await everyStepTools();
  });

  it('offer every step once, with a non-empty object input schema', () => {
    expect(tools.tools.map((tool) => tool.stepId).sort()).toEqual(
      createRegistry()
        .listSteps()
        .map((step) => step.id)
        .sort(),
    );
    for (const tool of tools.tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(Object.keys(tool.inputSchema.properties as object).length).toBeGreaterThan(0);
    }
  });

  it('follow OpenAI’s strict rules on every step that has a strict form, in both API shapes', () => {
    const responses = toOpenAITools(tools, { strict: true, format: 'responses' });
    const chat = toOpenAITools(tools, { strict: true, format: 'chat' });
    expect(responses).toHaveLength(tools.tools.length);
    const loose = responses.filter((tool) => !tool.strict).map((tool) => tool.name);
    // Strict mode cannot describe a map with free keys: the API Call bodies and headers, a deployment's meta.
    expect(loose.sort()).toEqual([
      'anz_data__api_call',
      'contact_data__api_call',
      'deployments__api_call',
      'deployments__create_deployment',
      'ticketing__api_call',
    ]);
    for (const tool of responses.filter((candidate) => candidate.strict)) {
      expect({ tool: tool.name, problems: strictRuleViolations(tool.parameters) }).toEqual({
        tool: tool.name,
        problems: [],
      });
    }
    expect(chat[0]).toEqual({ type: 'function', function: { ...responses[0], type: undefined } });
  });

  it('leave strict rules out when not asked', () => {
    const tool = toOpenAITools(tools, { strict: false }).find(
      (one) => one.name === 'ticketing__create_ticket',
    );
    expect(tool?.strict).toBe(false);
    expect(tool?.parameters.required).toEqual(['subject', 'description']);
  });

  it('give Anthropic {name, description, input_schema}', () => {
    const [first] = toAnthropicTools(tools);
    expect(Object.keys(first ?? {}).sort()).toEqual(['description', 'input_schema', 'name']);
  });

  it('never carry a secret', async () => {
    const exported = JSON.stringify([
      tools.tools,
      toOpenAITools(tools, { strict: true }),
      toOpenAITools(tools, { strict: false, format: 'chat' }),
      toAnthropicTools(tools),
      Object.values(await toAiSdkTools(tools)).map((tool) => [tool.description, tool.inputSchema]),
    ]);
    expect(exported).not.toContain(CANARY);
  });
});

describe('calls through the exports, against the sandbox', () => {
  const live = useSandboxAgentTools();

  it('strip the nulls a strict model sends for absent optional fields, and send only what was meant', async () => {
    const strict = toOpenAITools(live.tools, { strict: true }).find(
      (tool) => tool.name === 'ticketing__create_ticket',
    );
    const args = Object.fromEntries(
      Object.keys(strict?.parameters.properties as object).map((key) => [key, null]),
    ) as Record<string, unknown>;
    Object.assign(args, { subject: 'Strict subject', description: 'Sent by a strict model.' });
    const outcome = await live.tools.runTool('ticketing__create_ticket', args);
    expect(outcome.ok).toBe(true);
    const body = JSON.parse(live.fixture.sandbox.server.requestLog.at(-1)?.rawBody ?? '{}');
    expect(body.ticket.subject).toBe('Strict subject');
    expect(body.ticket).not.toHaveProperty('priority');
    const reply = openAIResponsesToolResult('call_1', outcome);
    expect(reply.type).toBe('function_call_output');
    expect(JSON.parse(reply.output).output.ticket.subject).toBe('Strict subject');
  });

  it('turn a typed error into each SDK’s error result', async () => {
    const outcome = await live.tools.runTool('ticketing__get_ticket_info', { ticket_id: 424242 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'not_found', status: 404 } });
    expect(anthropicToolResult('toolu_1', outcome)).toMatchObject({ type: 'tool_result', is_error: true });
    expect(JSON.parse(openAIChatToolResult('call_2', outcome).content).error.code).toBe('not_found');
    // A call that does not fit the schema: the loops of the OpenAI and Anthropic pages hand the model the fields.
    const misfit = await live.tools.runTool('ticketing__create_ticket', { subject: 42 });
    const told = JSON.parse(openAIChatToolResult('call_3', misfit).content).error;
    expect(told).toMatchObject({ code: 'input_invalid', sent: false });
    expect(told.fields.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'description',
      'subject',
    ]);
    expect(JSON.stringify(anthropicToolResult('toolu_2', misfit))).toContain('input_invalid');
  });

  it('hand the model of the OpenAI and Anthropic pages our error JSON naming the field of each misfit call, and send nothing', async () => {
    // These two pages run their own loop: what the model reads is the result message our helpers build.
    for (const { args, field } of MISFIT_CREATE_CALLS) {
      const before = sandboxPosts(live);
      const misfit = await live.tools.runTool('ticketing__create_ticket', { ...args });
      const anthropic = anthropicToolResult('toolu_misfit', misfit);
      expect(anthropic.is_error).toBe(true);
      expectInputErrorNaming(JSON.parse(anthropic.content).error, field);
      expectInputErrorNaming(JSON.parse(openAIChatToolResult('call_misfit', misfit).content).error, field);
      expectInputErrorNaming(
        JSON.parse(openAIResponsesToolResult('call_misfit', misfit).output).error,
        field,
      );
      expect(sandboxPosts(live)).toBe(before);
    }
  });

  it('answer a call that does not fit the schema with our error JSON, in the AI SDK’s loop, and send nothing', async () => {
    for (const { args, field } of MISFIT_CREATE_CALLS) {
      const model = twoTurnModel(args, 'Failed.');
      const before = sandboxPosts(live);
      const tools = await toAiSdkTools(live.tools);
      const result = await generateText({ model, tools, prompt: 'Open a ticket.', stopWhen: stepCountIs(3) });
      const output = result.steps[0]?.toolResults[0]?.output as { error?: never } | undefined;
      expectInputErrorNaming(output?.error, field);
      // What the model reads on its next turn: the tool result part of the prompt.
      expect(JSON.stringify(model.doGenerateCalls[1]?.prompt ?? [])).toContain('input_invalid');
      expect(sandboxPosts(live)).toBe(before);
    }
  });

  it('drive toAiSdkTools() through a tool call of the AI SDK’s mock model', async () => {
    const model = twoTurnModel({ subject: 'From the AI SDK', description: 'Mock model.' }, 'Done.');
    const result = await generateText({
      model,
      tools: await toAiSdkTools(live.tools),
      prompt: 'Open a ticket.',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('Done.');
    const toolResult = result.steps[0]?.toolResults[0];
    expect(toolResult?.toolName).toBe('ticketing__create_ticket');
    expect(toolResult?.output).toMatchObject({ output: { ticket: { subject: 'From the AI SDK' } } });
    // The model saw the tool's JSON schema, not a zod object.
    const offered = model.doGenerateCalls[0]?.tools?.find((tool) => tool.name === 'ticketing__create_ticket');
    expect(offered).toMatchObject({ type: 'function', inputSchema: { type: 'object' } });
  });
});

describe('a connection whose secret is the canary', () => {
  let fixture: TicketingFixture;
  beforeAll(async () => {
    fixture = await ticketingFixture();
  });
  afterAll(() => fixture.close());

  it('never shows it in a result, even when the provider refuses it', async () => {
    await fixture.store.put({
      ...fixture.connection,
      id: 'tickets-canary',
      secrets: { accessToken: CANARY },
      expiresAt: undefined,
    });
    const tools = await AgentTools.load({
      registry: fixture.registry,
      runtime: fixture.runtime,
      connections: ['tickets-canary'],
    });
    const outcome = await tools.runTool('ticketing__list_tickets', {});
    expect(outcome.ok).toBe(false);
    const sent = fixture.sandbox.server.requestLog.at(-1)?.headers.authorization;
    expect(sent).toBe(`Bearer ${CANARY}`);
    for (const text of [
      JSON.stringify(outcome),
      JSON.stringify(anthropicToolResult('t', outcome)),
      openAIResponsesToolResult('c', outcome).output,
    ]) {
      expect(text).not.toContain(CANARY);
    }
  });
});
