import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { InputError } from '../../src/errors/input-error.js';
import { agentFromFunction, type EvalAgent } from '../../src/eval/eval-agent.js';
import { ScriptFile, scriptedAgentOf } from '../../src/eval/scripted-agent.js';
import { providedImporter } from '../module-importer.js';

/** A module's default export as an agent: an `EvalAgent` object, or a function of the session. */
function agentOfExport(value: unknown, file: string): EvalAgent {
  if (typeof value === 'function') return agentFromFunction(path.basename(file), value as EvalAgent['run']);
  if (value && typeof (value as EvalAgent).run === 'function') return value as EvalAgent;
  throw new InputError(
    `${file} must export default an agent ({ name, run(session) }) or a function of the session.`,
    [{ path: 'agent', message: 'no agent exported' }],
  );
}

/**
 * `--agent <file>`: a scripted agent (`.yaml`, `.yml`, `.json`: `{name, calls}`)
 * or a JavaScript module whose default export is the agent (your model
 * wrapped with `aiSdkAgent`, say).
 */
export async function loadAgentFile(file: string): Promise<EvalAgent> {
  const absolute = path.resolve(file);
  if (/\.(ya?ml|json)$/i.test(file)) {
    const script = ScriptFile.safeParse(parseYaml(await readFile(absolute, 'utf8'), { schema: 'core' }));
    if (!script.success) {
      throw new InputError(`${file} is not a scripted agent: ${script.error.issues[0]?.message}`, [
        { path: 'agent', message: 'not a scripted agent file' },
      ]);
    }
    return scriptedAgentOf(script.data);
  }
  const specifier = pathToFileURL(absolute).href;
  const importModule = providedImporter() ?? ((target: string) => import(target));
  const loaded = (await importModule(specifier)) as { default?: unknown };
  return agentOfExport(loaded.default, file);
}
