import { generateText, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentTools } from '../../src/agents/agent-tools.js';
import { toAiSdkTools } from '../../src/agents/ai-sdk-tools.js';
import { startTestOtelSdk, type TestOtelSdk } from '../support/otel-sdk.js';
import { scanRun } from '../support/private-data-scan.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';
import { twoTurnModel } from '../support/two-turn-model.js';

/**
 * The AI SDK's own telemetry (`experimental_telemetry`) and ours in one
 * trace: a scripted model (the SDK's mock, no network) asks for a toolsteps
 * tool, and our `execute_tool` span is a child of the SDK's `ai.toolCall`
 * span, carrying its tool call id.
 */

const ARGS = { subject: 'Refund for order 5521', description: 'Jo Bloggs asks for a refund by card.' };

let sdk: TestOtelSdk;
let fx: TicketingFixture;

beforeAll(async () => {
  sdk = startTestOtelSdk();
  fx = await ticketingFixture();
});

afterAll(async () => {
  await fx?.close();
  await sdk?.shutdown();
});

describe('an AI SDK generateText with telemetry on, calling a toolsteps tool', () => {
  it('nests our invocation span under the SDK’s tool-call span', async () => {
    const tools = await AgentTools.load({ registry: fx.registry, runtime: fx.runtime });
    const result = await generateText({
      model: twoTurnModel(ARGS, 'Done.', 'call-ai-7'),
      tools: await toAiSdkTools(tools),
      prompt: 'Open a ticket.',
      stopWhen: stepCountIs(3),
      // Inputs and outputs are the SDK's to record or not; ours never are.
      experimental_telemetry: { isEnabled: true, recordInputs: false, recordOutputs: false },
    });
    expect(result.text).toBe('Done.');
    const spans = sdk.spans();
    const toolCall = spans.find((span) => span.name === 'ai.toolCall');
    const invocation = spans.find((span) => span.name === 'execute_tool ticketing.create_ticket');
    expect(toolCall).toBeDefined();
    expect(invocation?.parentSpanContext?.spanId).toBe(toolCall?.spanContext().spanId);
    expect(invocation?.spanContext().traceId).toBe(toolCall?.spanContext().traceId);
    expect(invocation?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.call.id': 'call-ai-7',
      'toolsteps.step.id': 'ticketing.create_ticket',
    });
    const generate = spans.find((span) => span.name === 'ai.generateText');
    expect(toolCall?.spanContext().traceId).toBe(generate?.spanContext().traceId);
    // And the provider request under ours.
    const post = spans.find((span) => span.name === 'POST /api/v2/tickets.json');
    expect(post?.parentSpanContext?.spanId).toBe(invocation?.spanContext().spanId);
  });

  it('leaves nothing private in what toolsteps exported', async () => {
    const ours = sdk.spans().filter((span) => span.instrumentationScope.name === 'toolsteps');
    expect(ours.length).toBeGreaterThan(1);
    const scan = scanRun({
      spans: ours,
      metrics: await sdk.metrics(),
      sandbox: fx.sandbox,
      connections: [fx.connection, ...(await fx.store.list())],
      values: Object.values(ARGS),
    });
    expect(scan.findings).toEqual([]);
  });
});
