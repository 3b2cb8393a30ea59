import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openaiChatAgent } from '../../src/eval/openai-chat-agent.js';
import { runScenario } from '../../src/eval/run-scenario.js';
import { loadScenarioFile } from '../../src/eval/scenario-file.js';
import { useEvalTwins } from './eval-twins.js';
import { useScriptedEndpoint } from './scripted-endpoint.js';

const toolCall = (id: string, name: string, args: object) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});

const TURNS = [
  toolCall('call_1', 'ticketing__get_ticket_info', { ticket_id: 4 }),
  // Strict mode: the model sends null for every field it leaves out; the tools strip them.
  toolCall('call_2', 'ticketing__update_ticket', {
    ticket_id: 4,
    priority: 'high',
    group_id: 360_002,
    status: null,
  }),
  { role: 'assistant', content: 'Routed to Billing.' },
];

interface ChatBody {
  messages: { role: string; content?: string }[];
  tools: { function: { name: string } }[];
}

describe('openaiChatAgent', () => {
  const fixture = useEvalTwins();
  const chat = useScriptedEndpoint<ChatBody>((index) => ({
    id: `c${index}`,
    object: 'chat.completion',
    created: 0,
    model: 'scripted',
    choices: [{ index: 0, message: TURNS[index] ?? TURNS.at(-1), finish_reason: 'stop' }],
  }));

  it('runs the triage scenario through the official client and a Chat Completions tool loop', async () => {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${chat.url()}/v1`, maxRetries: 0 });
    const agent = openaiChatAgent({ client, model: 'scripted', system: 'Triage tickets.' });
    const scenario = await loadScenarioFile('docs/examples/eval/scenarios/triage-ticket.yaml');
    const result = await runScenario(scenario, { registry: fixture.registry, twins: fixture.twins, agent });
    expect(result.runs[0]!.checks.filter((check) => !check.passed)).toEqual([]);
    expect(result.runs[0]!.answer).toBe('Routed to Billing.');
    expect(chat.bodies[0]!.tools.map((tool) => tool.function.name).sort()).toEqual([
      'ticketing__get_ticket_info',
      'ticketing__list_tickets',
      'ticketing__update_ticket',
    ]);
    // What the model read back: the step's result, as a tool message.
    const toolMessage = chat.bodies[2]!.messages.at(-1)!;
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_2' });
    expect(JSON.parse(toolMessage.content!)).toMatchObject({ output: { ticket: { group_id: 360_002 } } });
  });
});
