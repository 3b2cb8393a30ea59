// A scripted model behind the providers' own HTTP APIs, for running the
// examples of docs/agents/ as they are written: the OpenAI SDK, the Agents
// SDK, LangChain's ChatOpenAI and Mastra's model router all reach OpenAI
// through OPENAI_BASE_URL, the Anthropic SDK through ANTHROPIC_BASE_URL, so
// pointing those at this server swaps the model and nothing else. It answers
// the Responses API (plain and streamed), Chat Completions (plain and
// streamed) and the Messages API, and `/scripted/turn` for the AI SDK's
// MockLanguageModelV3 (scripts/agent-pages/ai-sdk-model.mjs).
//
// The script, every time: the first turn asks for `ticketing__create_ticket`
// with the arguments it was given; the next turn reads the tool's result
// back from the conversation and says the ticket id, or the error code.
// Only node's own modules: the check copies it into each consumer project.
import http from 'node:http';

export const CREATE_TOOL = 'ticketing__create_ticket';

/** The text of a tool result as each API carries it back: a string, or text blocks. */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((block) => block?.text ?? '').join('');
  return content === undefined ? undefined : JSON.stringify(content);
}

/** The last tool result in a request, by API; undefined on the first turn. */
function toolResultOf(api, body) {
  if (api === 'responses') {
    const items = Array.isArray(body.input) ? body.input : [];
    return textOf(items.findLast((item) => item.type === 'function_call_output')?.output);
  }
  if (api === 'chat') return textOf(body.messages?.findLast((message) => message.role === 'tool')?.content);
  if (api === 'messages') {
    const blocks = (body.messages ?? []).flatMap((message) =>
      Array.isArray(message.content) ? message.content : [],
    );
    return textOf(blocks.findLast((block) => block.type === 'tool_result')?.content);
  }
  return body.toolResult;
}

/** The tool names a request offered, whatever shape each API gives a tool. */
function toolNamesOf(body) {
  return (body.tools ?? []).map((tool) => tool.name ?? tool.function?.name);
}

/** The turn the script plays: a create call first, then a sentence about what the tool answered. */
function decide(args, toolResult) {
  if (toolResult === undefined) return { call: { name: CREATE_TOOL, arguments: JSON.stringify(args) } };
  let read;
  try {
    read = JSON.parse(toolResult);
  } catch {
    return { text: 'The tool answered something that is not JSON.' };
  }
  if (read?.output?.ticket?.id !== undefined) return { text: `Opened ticket ${read.output.ticket.id}.` };
  return { text: `The call failed: ${read?.error?.code ?? 'no error code'}.` };
}

const USAGE = {
  input_tokens: 1,
  output_tokens: 1,
  total_tokens: 2,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

function responsesItem(turn) {
  if (turn.call) {
    return {
      type: 'function_call',
      id: `fc_${turn.n}`,
      call_id: `call_${turn.n}`,
      name: turn.call.name,
      arguments: turn.call.arguments,
      status: 'completed',
    };
  }
  return {
    type: 'message',
    id: `msg_${turn.n}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: turn.text, annotations: [] }],
  };
}

const ID_PREFIX = { response: 'resp_', 'chat.completion': 'chatcmpl_', 'chat.completion.chunk': 'chatcmpl_' };

/** The fields an OpenAI object starts with: its id, its kind, when it was made and by which model. */
function envelope(object, turn, model, createdKey = 'created') {
  return { id: `${ID_PREFIX[object]}${turn.n}`, object, [createdKey]: Math.floor(Date.now() / 1000), model };
}

function responsesBody(model, turn) {
  return {
    ...envelope('response', turn, model, 'created_at'),
    status: 'completed',
    output: [responsesItem(turn)],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: USAGE,
  };
}

/** The Responses API's server-sent events for one output item. */
function responsesEvents(model, turn) {
  const item = responsesItem(turn);
  const added = turn.call ? { ...item, arguments: '', status: 'in_progress' } : { ...item, content: [] };
  const events = [
    {
      type: 'response.created',
      response: { ...responsesBody(model, turn), status: 'in_progress', output: [] },
    },
    { type: 'response.output_item.added', output_index: 0, item: added },
  ];
  if (turn.call) {
    events.push({
      type: 'response.function_call_arguments.delta',
      item_id: item.id,
      output_index: 0,
      delta: turn.call.arguments,
    });
  } else {
    events.push({
      type: 'response.output_text.delta',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: turn.text,
    });
  }
  events.push(
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: responsesBody(model, turn) },
  );
  return events.map((event, index) => ({ ...event, sequence_number: index }));
}

function chatMessage(turn) {
  if (!turn.call) return { role: 'assistant', content: turn.text };
  return {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: `call_${turn.n}`, type: 'function', function: turn.call }],
  };
}

function chatBody(model, turn) {
  return {
    ...envelope('chat.completion', turn, model),
    choices: [
      {
        index: 0,
        message: chatMessage(turn),
        finish_reason: turn.call ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function chatChunks(model, turn) {
  const base = envelope('chat.completion.chunk', turn, model);
  const delta = turn.call
    ? {
        role: 'assistant',
        tool_calls: [{ index: 0, id: `call_${turn.n}`, type: 'function', function: turn.call }],
      }
    : { role: 'assistant', content: turn.text };
  return [
    { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
    {
      ...base,
      choices: [{ index: 0, delta: {}, finish_reason: turn.call ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  ];
}

function messagesBody(model, turn) {
  const content = turn.call
    ? [
        {
          type: 'tool_use',
          id: `toolu_${turn.n}`,
          name: turn.call.name,
          input: JSON.parse(turn.call.arguments),
        },
      ]
    : [{ type: 'text', text: turn.text }];
  return {
    id: `msg_${turn.n}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: turn.call ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

/** Which API a request path is, or undefined for one the script does not play. */
function apiOf(url) {
  if (url.endsWith('/responses')) return 'responses';
  if (url.endsWith('/chat/completions')) return 'chat';
  if (url.endsWith('/messages')) return 'messages';
  if (url.endsWith('/scripted/turn')) return 'scripted';
  return undefined;
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendEvents(response, events, withDone) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`);
  if (withDone) response.write('data: [DONE]\n\n');
  response.end();
}

/**
 * Starts the server on a free loopback port. `script(args)` sets the create
 * call's arguments for the next run; `turns` records what each request
 * offered and which tool result it carried back.
 */
export async function startScriptedModel() {
  let args = {};
  const turns = [];
  const unknown = [];
  const server = http.createServer(async (request, response) => {
    const api = apiOf(request.url ?? '');
    const text = await readBody(request);
    if (!api || request.method !== 'POST') {
      unknown.push(`${request.method} ${request.url}`);
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: `The scripted model does not play ${request.url}.` } }),
      );
      return;
    }
    const body = JSON.parse(text || '{}');
    const toolResult = toolResultOf(api, body);
    // Every answer has ids of its own: LangGraph merges messages that share an id.
    const turn = { ...decide(args, toolResult), n: turns.length + 1 };
    const model = body.model ?? body.modelId ?? 'unknown';
    turns.push({ api, model, stream: body.stream === true, tools: toolNamesOf(body), toolResult, turn });
    if (api === 'scripted') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(turn));
    } else if (api === 'responses' && body.stream) sendEvents(response, responsesEvents(model, turn), false);
    else if (api === 'chat' && body.stream) sendEvents(response, chatChunks(model, turn), true);
    else {
      const answer =
        api === 'responses'
          ? responsesBody(model, turn)
          : api === 'chat'
            ? chatBody(model, turn)
            : messagesBody(model, turn);
      response.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_scripted' });
      response.end(JSON.stringify(answer));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    turns,
    unknown,
    script(next) {
      args = next;
      turns.length = 0;
      unknown.length = 0;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
