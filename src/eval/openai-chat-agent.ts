import { toOpenAITools } from '../agents/openai-tools.js';
import type { AgentAnswer, EvalAgent, EvalSession } from './eval-agent.js';
import { taskPrompt } from './task-prompt.js';

/** A Chat Completions message, as far as the loop reads it. */
interface ChatMessage {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** The part of an `openai` client (the official SDK, 6.x) this uses: structural, so `openai` stays optional. */
export interface OpenAIChatClient {
  chat: {
    completions: {
      create(
        body: { model: string; messages: ChatMessage[]; tools: unknown[] },
        options?: { signal?: AbortSignal },
      ): Promise<{ choices: { message: ChatMessage }[] }>;
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
        const answer = await options.client.chat.completions.create(
          { model: options.model, messages, tools },
          { signal: session.signal },
        );
        const message = answer.choices[0]?.message;
        if (!message) return { text: undefined };
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
