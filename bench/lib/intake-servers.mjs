import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

/**
 * A child process, with what it writes to stdout and stderr kept, and a stop
 * that waits for it to exit. With TOOLSTEPS_BENCH_PROFILE_DIR set, each
 * writes a V8 CPU profile there (`--cpu-prof`), to see where its time goes.
 */
export function startChild(args, env = process.env) {
  const profileDir = process.env.TOOLSTEPS_BENCH_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    output.stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output.stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    child,
    output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Waits until `ready()` is true; fails naming `what` after `ms`. */
export async function waitFor(ready, what, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The baseline: a bare node:http server in a child process that reads the
 * body, checks the same HMAC (hex SHA-1 of the body, the deployments rule)
 * with a timing-safe compare and answers 200, and nothing else. Its node
 * arguments, for a parent that starts it otherwise (under callgrind).
 */
export function bareIntakeArgs(secret) {
  const script = `
    const { createServer } = require('node:http');
    const { createHmac, timingSafeEqual } = require('node:crypto');
    const secret = process.argv[1];
    const server = createServer((request, response) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const expected = Buffer.from(createHmac('sha1', secret).update(body).digest('hex'));
        const given = Buffer.from(String(request.headers['x-vercel-signature'] ?? ''));
        const ok = given.length === expected.length && timingSafeEqual(given, expected);
        response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        response.end(ok ? '{"status":"started"}' : '{"status":"refused"}');
      });
    });
    server.listen(0, '127.0.0.1', () => process.stderr.write('port ' + server.address().port + '\\n'));`;
  return ['-e', script, secret];
}

/** The bare server (bareIntakeArgs) in a child process, on any free port. */
export async function startBareIntake(secret) {
  const started = startChild(bareIntakeArgs(secret));
  await waitFor(() => started.output.stderr.includes('\n'), 'the bare server to listen');
  const port = Number(/port (\d+)/.exec(started.output.stderr)?.[1]);
  return { ...started, url: `http://127.0.0.1:${port}` };
}

/** `toolsteps listen` (the bin as shipped) in a child process, on any free port. */
export async function startListen(build, env, extra = []) {
  const cli = path.join(build, 'cli/toolsteps.cjs');
  const started = startChild([cli, 'listen', '--port', '0', '--json', ...extra], env);
  await waitFor(
    () => started.output.stderr.includes('"listening"') || started.child.exitCode !== null,
    'toolsteps listen to start',
  );
  const line = started.output.stderr.split('\n').find((text) => text.includes('"listening"'));
  if (!line) throw new Error(`toolsteps listen did not start:\n${started.output.stderr}`);
  return { ...started, url: JSON.parse(line).listening.url };
}

/** `toolsteps worker` forwarding each event to `runUrl`. */
export async function startWorker(build, env, runUrl) {
  const cli = path.join(build, 'cli/toolsteps.cjs');
  const args = [cli, 'worker', '--forward-to', runUrl, '--concurrency', '8', '--json'];
  const started = startChild(args, env);
  await waitFor(
    () => started.output.stderr.includes('"working"') || started.child.exitCode !== null,
    'toolsteps worker to start',
  );
  if (started.child.exitCode !== null) throw new Error(`toolsteps worker exited:\n${started.output.stderr}`);
  return started;
}

/** Where the workers forward each event: every event id that arrived, in order (a run started). */
export async function startRunSink() {
  const arrived = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      arrived.push(JSON.parse(body).event_id);
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/run`,
    arrived,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** CPU a process has used so far, in microseconds, from /proc (Linux; ticks of 10 ms), or undefined elsewhere. */
export function processCpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are the 14th and 15th fields of the whole line, the 12th and 13th after the name.
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return undefined;
  }
}
