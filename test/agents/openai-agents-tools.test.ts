import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  Usage,
} from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { openaiAgentsTools } from '../../src/agents/openai-agents-tools.js';
import { everyStepTools } from '../support/every-step-tools.js';
import { expectInputErrorNaming, MISFIT_CREATE_CALLS, sandboxPosts } from '../support/misfit-calls.js';
import { useSandboxAgentTools } from '../support/sandbox-agent-tools.js';

/** The text of the last function call's result in a request's input, as the SDK hands it back to the model. */
function lastToolOutput(input: string | AgentInputItem[]): string {
  const items = typeof input === 'string' ? [] : input;
  const result = items.findLast((item) => item.type === 'function_call_result');
  if (result?.type !== 'function_call_result') throw new Error('no tool result in the input');
  const output = result.output;
  return typeof output === 'string' ? output : 'text' in output ? output.text : JSON.stringify(output);
}

/**
 * A model that follows a script, standing in for OpenAI behind the SDK's own
 * `Model` interface: first it asks for a ticket, then it reads the tool's
 * output from the input the Runner sends back and answers with the id.
 */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];

  constructor(
    private readonly args: object = { subject: 'From the Agents SDK', description: 'Scripted model.' },
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    if (this.requests.length === 1) {
      const args = this.args;
      return this.respond({
        type: 'function_call',
        callId: 'call_1',
        name: 'ticketing__create_ticket',
        arguments: JSON.stringify(args),
        status: 'completed',
      });
    }
    const read = JSON.parse(lastToolOutput(request.input));
    const text = read.output ? `Opened ticket ${read.output.ticket.id}.` : 'Failed.';
    return this.respond({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text }],
    });
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the test runs without streaming');
  }

  private respond(item: ModelResponse['output'][number]): ModelResponse {
    return { usage: new Usage(), output: [item] };
  }
}

describe('openaiAgentsTools() in the OpenAI Agents SDK’s Runner, against the sandbox', () => {
  const live = useSandboxAgentTools();

  it('runs a tool call the model asks for and gives it the created ticket’s id', async () => {
    const model = new ScriptedModel();
    // No cast: the adapter's declared type is held to the SDK's `Tool` here.
    const agent = new Agent({
      name: 'Support',
      instructions: 'Open tickets.',
      model,
      tools: await openaiAgentsTools(live.tools),
    });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Open a ticket.');
    const created = live.fixture.sandbox.server.requestLog.findLast((entry) => entry.method === 'POST');
    const sent = JSON.parse(created?.rawBody ?? '{}');
    expect(sent.ticket.subject).toBe('From the Agents SDK');
    const id = JSON.parse(lastToolOutput(model.requests[1]?.input ?? [])).output.ticket.id;
    expect(typeof id).toBe('number');
    expect(result.finalOutput).toBe(`Opened ticket ${id}.`);
    // The model was offered the strict schema: every property required, nothing else allowed.
    const offered = model.requests[0]?.tools.find((tool) => tool.name === 'ticketing__create_ticket');
    expect(offered).toMatchObject({
      type: 'function',
      strict: true,
      parameters: { additionalProperties: false },
    });
  });

  it('answers a call that does not fit the schema with our error JSON naming the field, and sends nothing', async () => {
    for (const { args, field } of MISFIT_CREATE_CALLS) {
      const model = new ScriptedModel(args);
      const tools = await openaiAgentsTools(live.tools);
      const agent = new Agent({ name: 'Support', instructions: 'Open tickets.', model, tools });
      const before = sandboxPosts(live);
      expect((await new Runner({ tracingDisabled: true }).run(agent, 'Open a ticket.')).finalOutput).toBe(
        'Failed.',
      );
      expectInputErrorNaming(JSON.parse(lastToolOutput(model.requests[1]?.input ?? [])).error, field);
      expect(sandboxPosts(live)).toBe(before);
    }
  });

  it('offers each tool strict where its schema allows, loose where it has a map of free keys', async () => {
    const made = await openaiAgentsTools(live.tools);
    const loose = made.filter((tool) => !tool.strict).map((tool) => tool.name);
    expect(loose).toEqual(['ticketing__api_call']);
    expect((await openaiAgentsTools(live.tools, { strict: false })).every((tool) => !tool.strict)).toBe(true);
  });

  it('hands a typed error back to the model as the tool output', async () => {
    const [getInfo] = (await openaiAgentsTools(live.tools)).filter(
      (tool) => tool.name === 'ticketing__get_ticket_info',
    );
    const output = await getInfo?.invoke({}, JSON.stringify({ ticket_id: 424242 }));
    expect(JSON.parse(String(output))).toMatchObject({ error: { code: 'not_found', status: 404 } });
  });

  it('asks for approval where told to', async () => {
    const made = await openaiAgentsTools(live.tools, { approval: 'writes' });
    const byName = new Map(made.map((tool) => [tool.name, tool]));
    expect(await byName.get('ticketing__create_ticket')?.needsApproval({}, {})).toBe(true);
    expect(await byName.get('ticketing__list_tickets')?.needsApproval({}, {})).toBe(false);
  });

  it('makes a tool of every step of the catalogue, with the SDK’s own tool()', async () => {
    const every = await everyStepTools();
    const made = await openaiAgentsTools(every);
    expect(made.map((tool) => tool.name)).toEqual(every.tools.map((tool) => tool.name));
    expect(
      made
        .filter((tool) => !tool.strict)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual([
      'anz_data__api_call',
      'contact_data__api_call',
      'deployments__api_call',
      'deployments__create_deployment',
      'ticketing__api_call',
    ]);
  });
});
