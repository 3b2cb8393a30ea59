import { MockLanguageModelV3 } from 'ai/test';

/**
 * The AI SDK's mock model: first a create_ticket call with `args` (under
 * `toolCallId`), then `text` once it read the result. No network.
 */
export function twoTurnModel(args: object, text: string, toolCallId = 'call-1'): MockLanguageModelV3 {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  const call = {
    type: 'tool-call' as const,
    toolCallId,
    toolName: 'ticketing__create_ticket',
    input: JSON.stringify(args),
  };
  return new MockLanguageModelV3({
    doGenerate: [
      { content: [call], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] },
      {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      },
    ],
  });
}
