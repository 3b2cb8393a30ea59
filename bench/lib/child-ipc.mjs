import os from 'node:os';

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * What an MCP row's server child answers its parent over IPC: its own CPU
 * (`cpu`), a `mark` (it enters uv_os_getpriority, where callgrind splits
 * its count: server-instructions.mjs), `calls` direct invocations of the
 * step in this process with their CPU per call (`direct`), and `stop`
 * (after `close`). Then it tells the parent it is ready, with `ready`'s
 * fields.
 */
export function answerParent(invokeDirect, close, ready) {
  process.on('message', async (message) => {
    if (message.type === 'cpu') return process.send({ type: 'cpu', us: cpuMicros() });
    if (message.type === 'mark') {
      os.getPriority();
      return process.send({ type: 'mark' });
    }
    if (message.type === 'direct') {
      const started = cpuMicros();
      for (let i = 0; i < message.calls; i += 1) {
        await invokeDirect({ ticket_id: 1 });
      }
      return process.send({ type: 'direct', us: (cpuMicros() - started) / message.calls });
    }
    if (message.type === 'stop') {
      await close();
      process.exit(0);
    }
  });
  process.send({ type: 'ready', ...ready });
}
