// Preloaded (`node --import`) before the AI SDK page's example: the AI SDK
// resolves a model id string such as 'openai/gpt-5' through its global
// provider (`globalThis.AI_SDK_DEFAULT_PROVIDER`, the AI Gateway when unset),
// so setting that provider to the SDK's own MockLanguageModelV3 swaps the
// model and leaves the example's code as the page gives it. Each turn asks
// the scripted model (scripts/agent-pages/scripted-model.mjs) what to say.
import { MockLanguageModelV3 } from 'ai/test';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The value of the last tool result in the prompt, as text. */
function lastToolResult(prompt) {
  const parts = prompt.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
  const output = parts.findLast((part) => part.type === 'tool-result')?.output;
  if (output === undefined) return undefined;
  return typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
}

function scriptedModel(modelId) {
  return new MockLanguageModelV3({
    provider: 'scripted',
    modelId,
    async doGenerate(options) {
      const response = await fetch(`${process.env.SCRIPTED_MODEL_URL}/scripted/turn`, {
        method: 'POST',
        body: JSON.stringify({
          model: modelId,
          tools: (options.tools ?? []).map((tool) => ({ name: tool.name })),
          toolResult: lastToolResult(options.prompt),
        }),
      });
      const turn = await response.json();
      if (turn.call) {
        return {
          content: [
            { type: 'tool-call', toolCallId: 'call-1', toolName: turn.call.name, input: turn.call.arguments },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: turn.text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

globalThis.AI_SDK_DEFAULT_PROVIDER = {
  specificationVersion: 'v3',
  languageModel: scriptedModel,
  embeddingModel() {
    throw new Error('the scripted provider has language models only');
  },
  imageModel() {
    throw new Error('the scripted provider has language models only');
  },
};
