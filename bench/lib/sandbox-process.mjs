import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Starts the sandbox in a child process, as a provider would be: nothing it
 * does is counted in the client's CPU. `options` are `startSandbox`'s plus
 * `tickets` (seed the ticketing account `acme` up to that many tickets) and
 * `speed` (the sandbox clock runs that many times faster than real time from
 * `epoch`, so quota windows of a minute pass in seconds; the client passes the
 * same `speed` and `epoch` to its own clock), and `keepAliveMs` (how long the
 * server keeps an idle connection; the sandbox's own is 5 s). Resolves with the ticketing base
 * URL, a token, the contact-data base URL and key, and `stop()`.
 */
export async function startSandboxProcess(build, options = {}) {
  const sandboxModule = pathToFileURL(path.join(build, 'sandbox/index.js')).href;
  const seedModule = pathToFileURL(path.join(build, 'sandbox/ticketing/ticketing-seed.js')).href;
  // src/clock.js before issue 35 moved it: a --build of that baseline (2672ba1) runs too.
  const clockFile = ['src/model/clock.js', 'src/clock.js']
    .map((file) => path.join(build, file))
    .find((file) => existsSync(file));
  const clockModule = pathToFileURL(clockFile ?? path.join(build, 'src/model/clock.js')).href;
  const script = `
    import { startSandbox, CONTACT_DATA_SANDBOX_KEY } from ${JSON.stringify(sandboxModule)};
    import { seedTickets } from ${JSON.stringify(seedModule)};
    import { ScaledClock } from ${JSON.stringify(clockModule)};
    const { tickets, speed, epoch, keepAliveMs, ...options } = JSON.parse(process.argv[1]);
    const clock = speed ? new ScaledClock({ startAt: epoch, realStart: epoch, speed }) : undefined;
    const sandbox = await startSandbox({ port: 0, requestLogLimit: 0, ...options, ...(clock ? { clock } : {}) });
    // The node:http server behind SandboxServer (a private field in TypeScript, there at run time).
    if (keepAliveMs) sandbox.server.server.keepAliveTimeout = keepAliveMs;
    if (tickets) seedTickets(sandbox.ticketing.account('acme'), tickets);
    const token = sandbox.ticketing.issueTokens('acme').access_token;
    process.stdout.write(JSON.stringify({
      url: sandbox.url,
      ticketing: sandbox.baseUrl('ticketing', 'acme'),
      token,
      contactData: sandbox.baseUrl('contact-data'),
      contactDataKey: CONTACT_DATA_SANDBOX_KEY,
    }) + '\\n');
    process.stdin.on('end', () => sandbox.close().then(() => process.exit(0)));
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ready = await new Promise((resolve, reject) => {
    let out = '';
    const deadline = setTimeout(() => reject(new Error('the sandbox did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before it was ready`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      clearTimeout(deadline);
      resolve(JSON.parse(out));
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    ...ready,
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
