import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { anthropicAgent } from '../../src/eval/anthropic-agent.js';
import { runScenario } from '../../src/eval/run-scenario.js';
import { loadScenarioFile } from '../../src/eval/scenario-file.js';
import { useEvalTwins } from './eval-twins.js';
import { useScriptedEndpoint } from './scripted-endpoint.js';

const toolUse = (id: string, name: string, input: object) => [{ type: 'tool_use', id, name, input }];

const TURNS = [
  toolUse('toolu_1', 'ticketing__update_ticket', {
    ticket_id: 5,
    status: 'solved',
    internal_note: 'Duplicate of #4.',
  }),
  // A wrong input first: the error comes back as a tool_result with is_error, and the model corrects it.
  toolUse('toolu_2', 'ticketing__update_ticket', { ticket_id: 6, status: 'finished' }),
  toolUse('toolu_3', 'ticketing__update_ticket', {
    ticket_id: 6,
    status: 'solved',
    internal_note: 'Duplicate of #4.',
  }),
  [{ type: 'text', text: 'Closed 5 and 6 as duplicates of 4.' }],
];

interface MessagesBody {
  messages: {
    role: string;
    content: string | { type: string; tool_use_id?: string; is_error?: boolean; content?: string }[];
  }[];
  tools: { name: string }[];
}

describe('anthropicAgent', () => {
  const fixture = useEvalTwins();
  const api = useScriptedEndpoint<MessagesBody>((index) => {
    const content = TURNS[index] ?? TURNS.at(-1)!;
    const stop = content[0]?.type === 'tool_use' ? 'tool_use' : 'end_turn';
    return {
      id: `msg_${index}`,
      type: 'message',
      role: 'assistant',
      model: 'scripted',
      content,
      stop_reason: stop,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
  });

  it('runs close-duplicates through the official client, reading its own error and correcting it', async () => {
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: api.url(), maxRetries: 0 });
    const agent = anthropicAgent({ client, model: 'scripted' });
    const scenario = await loadScenarioFile('docs/examples/eval/scenarios/close-duplicates.yaml');
    const result = await runScenario(scenario, { registry: fixture.registry, twins: fixture.twins, agent });
    expect(result.runs[0]!.checks.filter((check) => !check.passed)).toEqual([]);
    expect(result.runs[0]!.calls.map((call) => [call.step, call.ok, call.error?.code ?? null])).toEqual([
      ['ticketing.update_ticket', true, null],
      ['ticketing.update_ticket', false, 'input_invalid'],
      ['ticketing.update_ticket', true, null],
    ]);
    const lastTurn = api.bodies[2]!.messages.at(-1)!;
    expect(lastTurn.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_2', is_error: true }),
    ]);
    expect(result.runs[0]!.answer).toBe('Closed 5 and 6 as duplicates of 4.');
  });
});
