import { Agent } from '@mastra/core/agent';
import { describe, expect, it } from 'vitest';
import { mastraCallOf, mastraTools } from '../../src/agents/mastra-tools.js';
import { everyStepTools } from '../support/every-step-tools.js';
import { expectInputErrorNaming, MISFIT_CREATE_CALLS, sandboxPosts } from '../support/misfit-calls.js';
import { useSandboxAgentTools } from '../support/sandbox-agent-tools.js';

type Part = { type: string; [key: string]: unknown };
type PromptMessage = { role: string; content: string | Part[] };

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** The value of the last tool result in a prompt, as Mastra hands it back to the model. */
function lastToolResult(prompt: PromptMessage[]) {
  const parts = prompt.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
  const result = parts.findLast((part) => part.type === 'tool-result') as { output?: { value?: unknown } };
  const value = result?.output?.value;
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/**
 * A language model (the AI SDK's v2 model interface, which Mastra 0.24 runs)
 * that follows a script: first it asks for a ticket, then it reads the
 * tool's result from the prompt Mastra sends back and answers with the id.
 */
function scriptedModel(args: object = { subject: 'From Mastra', description: 'Scripted model.' }) {
  const prompts: PromptMessage[][] = [];
  /** The tools as each call offered them to the model: name and JSON input schema. */
  const offered: { name: string; inputSchema: Record<string, unknown> }[][] = [];
  const turn = (prompt: PromptMessage[]): Part[] => {
    prompts.push(prompt);
    if (prompts.length === 1) {
      const input = JSON.stringify(args);
      return [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'ticketing__create_ticket', input }];
    }
    const result = lastToolResult(prompt);
    return [{ type: 'text', text: result.output ? `Opened ticket ${result.output.ticket.id}.` : 'Failed.' }];
  };
  const finishReason = (parts: Part[]) => (parts[0]?.type === 'tool-call' ? 'tool-calls' : 'stop');
  return {
    prompts,
    offered,
    model: {
      specificationVersion: 'v2' as const,
      provider: 'scripted',
      modelId: 'scripted-1',
      supportedUrls: {},
      async doGenerate(options: { prompt: PromptMessage[]; tools?: (typeof offered)[number] }) {
        offered.push(options.tools ?? []);
        const content = turn(options.prompt);
        return { content, finishReason: finishReason(content), usage, warnings: [] };
      },
      async doStream(options: { prompt: PromptMessage[]; tools?: (typeof offered)[number] }) {
        offered.push(options.tools ?? []);
        const content = turn(options.prompt);
        const parts: Part[] = [{ type: 'stream-start', warnings: [] }];
        for (const part of content) {
          if (part.type !== 'text') parts.push(part);
          else
            parts.push(
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: part.text },
              { type: 'text-end', id: 't' },
            );
        }
        parts.push({ type: 'finish', finishReason: finishReason(content), usage });
        const stream = new ReadableStream<Part>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        });
        return { stream };
      },
    },
  };
}

describe('mastraTools() in a Mastra Agent’s loop, against the sandbox', () => {
  const live = useSandboxAgentTools();

  it('runs a tool call the model asks for and gives it the created ticket’s id', async () => {
    const { model, prompts } = scriptedModel();
    // No cast on the tools: the adapter's declared type is held to the Agent's `live.tools` here.
    const agent = new Agent({
      name: 'support',
      instructions: 'Open tickets.',
      model: model as never,
      tools: await mastraTools(live.tools),
    });
    const result = await agent.generate('Open a ticket.', { maxSteps: 3 });
    const created = live.fixture.sandbox.server.requestLog.findLast((entry) => entry.method === 'POST');
    expect(JSON.parse(created?.rawBody ?? '{}').ticket.subject).toBe('From Mastra');
    const id = lastToolResult(prompts[1] ?? []).output.ticket.id;
    expect(typeof id).toBe('number');
    expect(result.text).toBe(`Opened ticket ${id}.`);
  });

  it('answers a call that does not fit the schema with our error JSON naming the field, and sends nothing', async () => {
    // Mastra checks arguments against the tool's input schema before execute; its own answer would
    // not carry our code, fields and `sent`, which is what the page promises the model.
    for (const { args, field } of MISFIT_CREATE_CALLS) {
      const { model, prompts } = scriptedModel(args);
      const before = sandboxPosts(live);
      const tools = await mastraTools(live.tools);
      const agent = new Agent({
        name: 'support',
        instructions: 'Open tickets.',
        model: model as never,
        tools,
      });
      expect((await agent.generate('Open a ticket.', { maxSteps: 3 })).text).toBe('Failed.');
      expectInputErrorNaming(lastToolResult(prompts[1] ?? []).error, field);
      expect(sandboxPosts(live)).toBe(before);
    }
  });

  it('answers a typed error as the tool result, so the model can correct itself', async () => {
    const made = await mastraTools(live.tools);
    const answer = await made.ticketing__get_ticket_info?.execute(
      { context: { ticket_id: 424242 }, runtimeContext: new Map() },
      {},
    );
    expect(answer).toMatchObject({ error: { code: 'not_found', status: 404 } });
  });

  it('reads the arguments and the signal from both of Mastra’s execute signatures', () => {
    const input = { ticket_id: 42 };
    const { signal } = new AbortController();
    // 0.x: execute({ context: input, runtimeContext, ... }, { abortSignal }); 1.x: execute(input, { abortSignal, ... }).
    expect(mastraCallOf({ context: input, runtimeContext: new Map() }, { abortSignal: signal })).toEqual({
      input,
      signal,
    });
    expect(mastraCallOf(input, { abortSignal: signal, requestContext: new Map() })).toEqual({
      input,
      signal,
    });
    // The AI SDK's tool call id, which Mastra passes on, names the invocation's span.
    expect(mastraCallOf(input, { abortSignal: signal, toolCallId: 'call_1' }).toolCallId).toBe('call_1');
  });

  it('shows the model each step’s JSON input schema, required fields and types included', async () => {
    const { model, offered } = scriptedModel();
    const made = await mastraTools(live.tools);
    expect(Object.keys(made)).toEqual(live.tools.tools.map((tool) => tool.name));
    const agent = new Agent({
      name: 'support',
      instructions: 'Open tickets.',
      model: model as never,
      tools: made,
    });
    await agent.generate('Open a ticket.', { maxSteps: 3 });
    const create = offered[0]?.find((tool) => tool.name === 'ticketing__create_ticket');
    expect(create?.inputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['subject', 'description']),
      properties: { subject: { type: 'string' }, description: { type: 'string' } },
    });
  });

  it('makes a tool of every step of the catalogue: each JSON schema has a zod form', async () => {
    const every = await everyStepTools();
    expect(Object.keys(await mastraTools(every))).toEqual(every.tools.map((tool) => tool.name));
  });
});
