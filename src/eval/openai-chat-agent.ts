import * as z from 'zod';
import { toOpenAITools } from '../agents/openai-tools.js';
import { ProviderError } from '../errors/index.js';
import { builtOnce } from '../values/built-once.js';
import type { AgentAnswer, EvalAgent, EvalSession } from './eval-agent.js';
import { taskPrompt } from './task-prompt.js';

/**
 * The part of a Chat Completions answer the loop reads. The model's answer is
 * untrusted like any provider's: checked before a tool is called from it.
 */
const ChatAnswer = builtOnce(() =>
  z.object({
    choices: z
      .array(
        z.object({
          message: z.looseObject({
            role: z.string(),
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.looseObject({
                  id: z.string(),
                  type: z.literal('function'),
                  function: z.object({ name: z.string(), arguments: z.string() }),
                }),
              )
              .nullish(),
          }),
        }),
      )
      .min(1),
  }),
);
type ChatMessage =
  | z.infer<ReturnType<typeof ChatAnswer>>['choices'][number]['message']
  | { role: string; content: string; tool_call_id?: string };

/**
 * The part of an `openai` client (the official SDK, 6.x) this uses. Loose on
 * purpose: the SDK's overloads and unions cannot be restated without naming
 * `openai` (optional here), and what comes back is checked by ChatAnswer.
 */
export interface OpenAIChatClient {
  chat: {
    completions: {
      // biome-ignore lint/suspicious/noExplicitAny: the SDK's own parameter types live in `openai`, not named here.
      create(body: any, options?: any): PromiseLike<unknown>;
    };
  };
}

export interface OpenAIChatAgentOptions {
  /** Your client: `new OpenAI()` (or any OpenAI-compatible endpoint's, through `baseURL`). */
  client: OpenAIChatClient;
  model: string;
  name?: string;
  system?: string;
  /** Most model turns. Default 10. */
  maxTurns?: number;
}

/** The tools in Chat Completions' shape: flat ones through `toOpenAITools` (strict), the catalogue's as they are. */
function chatTools(session: EvalSession): unknown[] {
  if (session.mode === 'flat') return toOpenAITools(session.agentTools, { format: 'chat' });
  return session.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/** Arguments a model wrote; unreadable JSON goes to the tool as is, whose input check then says what is wrong. */
function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * An OpenAI Chat Completions agent: your client and model, the scenario's
 * tools, and the tool loop (each tool call answered by a `tool` message
 * with the result or `{error}`), until the model answers in text.
 */
export function openaiChatAgent(options: OpenAIChatAgentOptions): EvalAgent {
  return {
    name: options.name ?? `openai-chat:${options.model}`,
    async run(session): Promise<AgentAnswer> {
      const tools = chatTools(session);
      const messages: ChatMessage[] = [
        ...(options.system ? [{ role: 'system', content: options.system }] : []),
        { role: 'user', content: taskPrompt(session.task) },
      ];
      for (let turn = 0; turn < (options.maxTurns ?? 10); turn += 1) {
        const parsed = ChatAnswer().safeParse(
          await options.client.chat.completions.create(
            { model: options.model, messages, tools },
            { signal: session.signal },
          ),
        );
        if (!parsed.success) {
          throw new ProviderError(
            `The model answered something that is not a Chat Completions answer: ${parsed.error.issues[0]?.message}.`,
          );
        }
        const message = parsed.data.choices[0]!.message;
        messages.push(message);
        if (!message.tool_calls?.length) return { text: message.content ?? undefined };
        for (const call of message.tool_calls) {
          const result = await session.call(call.function.name, parsedArguments(call.function.arguments), {
            toolCallId: call.id,
          });
          messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
        }
      }
      return { text: undefined };
    },
  };
}
