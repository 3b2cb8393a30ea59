import type { AgentAnswer, EvalAgent } from './eval-agent.js';
import { taskPrompt } from './task-prompt.js';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error: boolean };

interface Message {
  role: 'user' | 'assistant';
  content: string | Block[];
}

/** The part of an `@anthropic-ai/sdk` client this uses: structural, so the SDK stays the user's choice. */
export interface AnthropicMessagesClient {
  messages: {
    create(
      body: { model: string; max_tokens: number; system?: string; messages: Message[]; tools: unknown[] },
      options?: { signal?: AbortSignal },
    ): Promise<{ content: Block[]; stop_reason: string | null }>;
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
        const answer = await options.client.messages.create(
          {
            model: options.model,
            max_tokens: options.maxTokens ?? 4096,
            ...(options.system ? { system: options.system } : {}),
            messages,
            tools,
          },
          { signal: session.signal },
        );
        messages.push({ role: 'assistant', content: answer.content });
        const uses = answer.content.filter((block) => block.type === 'tool_use');
        if (!uses.length) {
          const text = answer.content
            .flatMap((block) => (block.type === 'text' ? [block.text] : []))
            .join('\n');
          return { text: text || undefined };
        }
        const results: Block[] = [];
        for (const use of uses) {
          const result = await session.call(use.name, use.input, { toolCallId: use.id });
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
