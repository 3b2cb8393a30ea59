import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { langchainTools } from '../../src/agents/langchain-tools.js';
import { everyStepTools } from '../support/every-step-tools.js';
import { expectInputErrorNaming, MISFIT_CREATE_CALLS, sandboxPosts } from '../support/misfit-calls.js';
import { useSandboxAgentTools } from '../support/sandbox-agent-tools.js';

/** The JSON the last tool message carries, as the agent loop hands it back to the model. */
function lastToolResult(messages: BaseMessage[]) {
  const message = messages.findLast((candidate) => ToolMessage.isInstance(candidate));
  return JSON.parse(String(message?.content ?? '{}'));
}

describe('langchainTools() in LangChain’s createAgent loop, against the sandbox', () => {
  const live = useSandboxAgentTools();

  it('runs a tool call the model asks for and gives it the created ticket’s id', async () => {
    const args = { subject: 'From LangChain', description: 'Fake model.' };
    const model = fakeModel()
      .respondWithTools([{ name: 'ticketing__create_ticket', args, id: 'call_1' }])
      .respond((messages) => new AIMessage(`Opened ticket ${lastToolResult(messages).output.ticket.id}.`));
    // No cast: the adapter's declared type is held to createAgent's `live.tools` here.
    const agent = createAgent({ model, tools: await langchainTools(live.tools) });
    const { messages } = await agent.invoke({ messages: [{ role: 'user', content: 'Open a ticket.' }] });
    const created = live.fixture.sandbox.server.requestLog.findLast((entry) => entry.method === 'POST');
    expect(JSON.parse(created?.rawBody ?? '{}').ticket.subject).toBe('From LangChain');
    const id = lastToolResult(messages).output.ticket.id;
    expect(typeof id).toBe('number');
    expect(messages.at(-1)?.content).toBe(`Opened ticket ${id}.`);
    // Two turns of the model: the tool call, then the answer that read its result.
    expect(model.callCount).toBe(2);
  });

  it('answers a typed error as the tool message, so the model can correct itself', async () => {
    const made = await langchainTools(live.tools);
    const getInfo = made.find((tool) => tool.name === 'ticketing__get_ticket_info');
    const message = await getInfo?.invoke({
      id: 'call_2',
      name: 'ticketing__get_ticket_info',
      args: { ticket_id: 424242 },
      type: 'tool_call',
    });
    expect(ToolMessage.isInstance(message)).toBe(true);
    expect(JSON.parse(message.content)).toMatchObject({ error: { code: 'not_found', status: 404 } });
  });

  it('answers a call its schema refuses with our error JSON, naming the fields, and sends nothing', async () => {
    // LangChain checks arguments against the tool's JSON schema before the tool runs; its own answer
    // ("did not match expected schema", no field, no code) would leave the model guessing.
    const calls = MISFIT_CREATE_CALLS.map(({ args }, index) => ({
      name: 'ticketing__create_ticket',
      args,
      id: `bad_${index}`,
    }));
    const model = fakeModel().respondWithTools(calls).respond(new AIMessage('Giving up.'));
    const before = sandboxPosts(live);
    const agent = createAgent({ model, tools: await langchainTools(live.tools) });
    const { messages } = await agent.invoke({ messages: [{ role: 'user', content: 'Open a ticket.' }] });
    const answers = messages
      .filter((message) => ToolMessage.isInstance(message))
      .map((message) => JSON.parse(String(message.content)));
    expect(answers).toHaveLength(MISFIT_CREATE_CALLS.length);
    for (const [index, { field }] of MISFIT_CREATE_CALLS.entries())
      expectInputErrorNaming(answers[index].error, field);
    expect(sandboxPosts(live)).toBe(before);
  });

  it('carries each step’s JSON input schema', async () => {
    const made = await langchainTools(live.tools);
    const create = made.find((tool) => tool.name === 'ticketing__create_ticket');
    expect(create?.schema).toMatchObject({ type: 'object', required: ['subject', 'description'] });
    expect(made.map((tool) => tool.name)).toEqual(live.tools.tools.map((tool) => tool.name));
  });

  it('makes a tool of every step of the catalogue', async () => {
    const every = await everyStepTools();
    expect((await langchainTools(every)).map((tool) => tool.name)).toEqual(
      every.tools.map((tool) => tool.name),
    );
  });
});
