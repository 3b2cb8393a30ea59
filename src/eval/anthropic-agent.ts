import * as z from 'zod';
import { ProviderError } from '../errors/index.js';
import { builtOnce } from '../values/built-once.js';
import type { AgentAnswer, EvalAgent } from './eval-agent.js';
import { taskPrompt } from './task-prompt.js';

/**
 * The part of a Messages answer the loop reads: its content blocks (text and
 * tool_use; other kinds, thinking say, are passed back as they came). The
 * model's answer is untrusted like any provider's: checked before a tool is
 * called from it.
 */
const MessagesAnswer = builtOnce(() =>
  z.object({
    content: z.array(
      z.looseObject({
        type: z.string(),
        text: z.string().optional(),
        id: z.string().optional(),
        name: z.string().optional(),
        input: z.unknown().optional(),
      }),
    ),
  }),
);
type Block = z.infer<ReturnType<typeof MessagesAnswer>>['content'][number];

interface Message {
  role: 'user' | 'assistant';
  content: string | Block[];
}

/**
 * The part of an `@anthropic-ai/sdk` client this uses. Loose on purpose: the
 * SDK's parameter types cannot be restated without naming the SDK, and what
 * comes back is checked by MessagesAnswer.
 */
export interface AnthropicMessagesClient {
  messages: {
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's own parameter types live in the SDK, not named here.
    create(body: any, options?: any): PromiseLike<unknown>;
  };
}

export interface AnthropicAgentOptions {
  /** Your client: `new Anthropic()`. */
  client: AnthropicMessagesClient;
  model: string;
  name?: string;
  system?: string;
  /** Per answer. Default 4096. */
  maxTokens?: number;
  /** Most model turns. Default 10. */
  maxTurns?: number;
}

/**
 * An Anthropic Messages agent: your client and model, the scenario's tools
 * as client tools (`toAnthropicTools`'s shape, the catalogue's in catalog
 * mode), and the tool loop: every `tool_use` answered by a `tool_result`
 * (`is_error` on failure), until the model stops asking.
 */
export function anthropicAgent(options: AnthropicAgentOptions): EvalAgent {
  return {
    name: options.name ?? `anthropic:${options.model}`,
    async run(session): Promise<AgentAnswer> {
      const tools = session.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema,
      }));
      const messages: Message[] = [{ role: 'user', content: taskPrompt(session.task) }];
      for (let turn = 0; turn < (options.maxTurns ?? 10); turn += 1) {
        const parsed = MessagesAnswer().safeParse(
          await options.client.messages.create(
            {
              model: options.model,
              max_tokens: options.maxTokens ?? 4096,
              ...(options.system ? { system: options.system } : {}),
              messages,
              tools,
            },
            { signal: session.signal },
          ),
        );
        if (!parsed.success) {
          throw new ProviderError(
            `The model answered something that is not a Messages answer: ${parsed.error.issues[0]?.message}.`,
          );
        }
        const { content } = parsed.data;
        messages.push({ role: 'assistant', content });
        const uses = content.filter((block) => block.type === 'tool_use' && block.id && block.name);
        if (!uses.length) {
          const text = content
            .flatMap((block) => (block.type === 'text' && block.text ? [block.text] : []))
            .join('\n');
          return { text: text || undefined };
        }
        const results: Block[] = [];
        for (const use of uses) {
          const result = await session.call(String(use.name), use.input ?? {}, {
            toolCallId: String(use.id),
          });
          results.push({
            type: 'tool_result',
            tool_use_id: use.id,
            content: JSON.stringify(result),
            is_error: 'error' in result,
          });
        }
        messages.push({ role: 'user', content: results });
      }
      return { text: undefined };
    },
  };
}
