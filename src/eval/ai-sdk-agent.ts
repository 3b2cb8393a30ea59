import { toAiSdkTools } from '../agents/ai-sdk-tools.js';
import { missingPeer } from '../peers/optional-peer.js';
import type { EvalAgent } from './eval-agent.js';
import { taskPrompt } from './task-prompt.js';

export interface AiSdkAgentOptions {
  /** Your model: any AI SDK 6 language model (`openai('gpt-5')`, a gateway id, a MockLanguageModelV3...). */
  // biome-ignore lint/suspicious/noExplicitAny: the AI SDK's model type lives in `ai`, an optional peer not named here.
  model: any;
  name?: string;
  system?: string;
  /** Most model steps (a step is one model answer and its tool calls). Default 10. */
  maxSteps?: number;
}

/**
 * An AI SDK agent: your model, the scenario's tools (flat: `toAiSdkTools`,
 * exactly what an app gets; catalog: the three catalogue tools), and
 * `generateText`'s tool loop. `ai` is imported when the agent runs.
 */
export function aiSdkAgent(options: AiSdkAgentOptions): EvalAgent {
  return {
    name: options.name ?? `ai-sdk:${String(options.model?.modelId ?? 'model')}`,
    async run(session) {
      const ai = await import('ai').catch(missingPeer('ai', '^6', 'aiSdkAgent'));
      const tools =
        session.mode === 'flat'
          ? await toAiSdkTools(session.agentTools)
          : Object.fromEntries(
              session.tools.map((tool) => [
                tool.name,
                ai.tool<Record<string, unknown>, Record<string, unknown>>({
                  description: tool.description,
                  inputSchema: ai.jsonSchema<Record<string, unknown>>(tool.inputSchema),
                  execute: (args, { toolCallId }) => session.call(tool.name, args, { toolCallId }),
                }),
              ]),
            );
      const result = await ai.generateText({
        model: options.model,
        tools,
        ...(options.system ? { system: options.system } : {}),
        prompt: taskPrompt(session.task),
        stopWhen: ai.stepCountIs(options.maxSteps ?? 10),
        abortSignal: session.signal,
      });
      return { text: result.text };
    },
  };
}
