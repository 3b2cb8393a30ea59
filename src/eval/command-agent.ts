import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { EvalAgent } from './eval-agent.js';

/** Longest line an agent process may write: a tool call, not a dump. */
const MAX_LINE_CHARS = 1024 * 1024;

interface AgentLine {
  type?: unknown;
  id?: unknown;
  name?: unknown;
  arguments?: unknown;
  text?: unknown;
}

/**
 * An agent that is a command, in any language: it reads JSON lines on stdin
 * and writes JSON lines on stdout. First it reads
 * `{"type":"task","task":{text,input},"tools":[{name,description,inputSchema}],"mode":...}`;
 * then for each `{"type":"call","id":"1","name":"...","arguments":{...}}` it
 * writes, it reads `{"type":"result","id":"1","result":{...}}` (`{error}` on
 * failure); it ends with `{"type":"done","text":"..."}` or by exiting.
 * Its stderr passes through; it is killed when the run's time is up.
 */
export function commandAgent(argv: readonly string[], name = argv.join(' ')): EvalAgent {
  return {
    name,
    run(session) {
      const [command, ...args] = argv;
      if (!command) return Promise.reject(new Error('commandAgent needs a command'));
      const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], signal: session.signal });
      const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({ type: 'task', task: session.task, tools: session.tools, mode: session.mode });
      return new Promise((resolve, reject) => {
        let answer: string | undefined;
        let pending = Promise.resolve();
        child.on('error', reject);
        const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
        lines.on('line', (line) => {
          if (line.length > MAX_LINE_CHARS) return reject(new Error('the agent wrote a line over 1 MiB'));
          let message: AgentLine;
          try {
            message = JSON.parse(line) as AgentLine;
          } catch {
            return; // Not ours (a log line): ignored, as a human reading it would.
          }
          if (message.type === 'done') {
            answer = typeof message.text === 'string' ? message.text : undefined;
            child.stdin.end();
            return;
          }
          if (message.type !== 'call' || typeof message.name !== 'string') return;
          const { id, name: tool, arguments: callArgs } = message;
          // One call at a time, in the order written, as the trajectory records them.
          pending = pending.then(async () => {
            const result = await session.call(tool, callArgs ?? {}, { toolCallId: String(id ?? '') });
            if (!child.stdin.destroyed) send({ type: 'result', id, result });
          });
        });
        child.on('close', (code) => {
          pending.then(() => {
            if (code === 0 || answer !== undefined) resolve({ text: answer });
            else reject(new Error(`the agent command exited with ${code}`));
          }, reject);
        });
      });
    },
  };
}
