// Runs one docs/agents/ page's compiled example in its consumer project,
// twice, against the sandbox of the installed toolsteps: once with a model
// that asks for a valid ticket (a ticket must be created and the model must
// read its id back), once with a model that sends a subject of the wrong type
// (nothing may be sent, and the model must read our input_invalid JSON naming
// the field). The example runs as its own process, unchanged: its connection
// comes from TOOLSTEPS_HOME, its model from the scripted model the provider
// base URLs point at (or, for the AI SDK, the global provider a preload sets;
// for MCP, where the client is the caller, the call's arguments in the code).
//
// Usage (in the consumer project): node run-page.mjs <page> <example.js>
// Prints one JSON line: { problems: string[], runs: [...] }.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileConnectionStore } from 'toolsteps';
import { sandboxConnections, startSandbox } from 'toolsteps/sandbox';
import { createRegistry } from 'toolsteps/steps';
import { CREATE_TOOL, startScriptedModel } from './scripted-model.mjs';

const [page, example] = process.argv.slice(2);
const RUN_LIMIT_MS = 90_000;
const VALID = { subject: 'Printer on fire', description: 'Floor 3, since 9:00.' };
const MISFIT = { subject: 42, description: 'A subject of the wrong type.' };

function runExample(file, env, preload) {
  const args = preload ? ['--import', preload, file] : [file];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The environment the example sees: the connections' home and the scripted model, no real keys. */
function exampleEnv(home, model) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/(_API_KEY|_BASE_URL|_TOKEN)$/.test(name)),
  );
  return {
    ...env,
    TOOLSTEPS_HOME: home,
    OPENAI_API_KEY: 'sk-scripted',
    OPENAI_BASE_URL: `${model.url}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-scripted',
    ANTHROPIC_BASE_URL: model.url,
    // The Agents SDK sends traces to OpenAI's own host by default: not a model call.
    OPENAI_AGENTS_DISABLE_TRACING: '1',
    SCRIPTED_MODEL_URL: model.url,
  };
}

function postsTo(sandbox) {
  return sandbox.server.requestLog.filter(
    (entry) => entry.mount === 'ticketing' && entry.method === 'POST' && /tickets/.test(entry.path),
  );
}

function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The MCP example with its call's arguments replaced: the client plays the model there. */
async function misfitMcpExample(file) {
  const code = await readFile(file, 'utf8');
  const changed = code.replace(/arguments: \{[^}]*\}/, `arguments: ${JSON.stringify(MISFIT)}`);
  if (changed === code) throw new Error('the MCP example has no `arguments: {...}` to replace');
  const copy = file.replace(/\.js$/, '.misfit.js');
  await writeFile(copy, changed);
  return copy;
}

const problems = [];
const runs = [];
// The connections' home lies inside the consumer project, which the check deletes with it.
const home = await mkdtemp(path.join(process.cwd(), 'toolsteps-home-'));
const sandbox = await startSandbox();
const model = await startScriptedModel();
try {
  const registry = createRegistry();
  const store = new FileConnectionStore(home);
  for (const connection of Object.values(
    await sandboxConnections(sandbox, { registry, integrations: ['ticketing'] }),
  ))
    await store.put(connection);
  const env = exampleEnv(home, model);
  const preload = page === 'ai-sdk' ? path.resolve('ai-sdk-model.mjs') : undefined;

  for (const [kind, args] of [
    ['write', VALID],
    ['bad call', MISFIT],
  ]) {
    model.script(args);
    const before = postsTo(sandbox).length;
    const file = page === 'mcp' && kind === 'bad call' ? await misfitMcpExample(example) : example;
    const outcome = await runExample(file, env, preload);
    const posts = postsTo(sandbox).length - before;
    const said = (message) => problems.push(`${kind}: ${message}`);
    runs.push({
      kind,
      exit: outcome.code,
      posts,
      turns: model.turns.map(({ api, model: id, stream }) => ({ api, model: id, stream })),
    });
    if (outcome.code !== 0) {
      said(`the example exited with ${outcome.code ?? outcome.signal}:\n${outcome.stderr.slice(-3000)}`);
      continue;
    }
    if (model.unknown.length > 0) said(`the example asked the model for ${model.unknown.join(', ')}`);
    const results = model.turns
      .filter((turn) => turn.toolResult !== undefined)
      .map((turn) => parsed(turn.toolResult));
    if (page !== 'mcp') {
      if (!model.turns[0]?.tools.includes(CREATE_TOOL)) said(`the model was not offered ${CREATE_TOOL}`);
      if (results.length === 0) said('the model never read a tool result back');
    }
    if (kind === 'write') {
      if (posts !== 1) said(`the sandbox received ${posts} ticket writes, not 1`);
      const id = results.at(-1)?.output?.ticket?.id;
      if (page !== 'mcp' && !outcome.stdout.includes(`Opened ticket ${id}.`))
        said(`the example did not print the created ticket's id ${id}:\n${outcome.stdout.slice(-1000)}`);
    } else {
      if (posts !== 0) said(`the sandbox received ${posts} ticket writes for a call that does not fit`);
      const error = page === 'mcp' ? undefined : results.at(-1)?.error;
      const text = page === 'mcp' ? outcome.stdout : JSON.stringify(error ?? {});
      if (!/"?code"?: ?'?"?input_invalid/.test(text) || !/subject/.test(text))
        said(
          `the model did not read our input_invalid error naming \`subject\`:\n${(page === 'mcp' ? outcome.stdout : JSON.stringify(results.at(-1))).slice(-1500)}`,
        );
    }
  }
} catch (error) {
  problems.push(`the runner failed: ${error?.stack ?? error}`);
} finally {
  await model.close();
  await sandbox.close();
}
console.log(JSON.stringify({ problems, runs }));
