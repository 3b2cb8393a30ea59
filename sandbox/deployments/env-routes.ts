import type { Router } from '../router.js';
import { json, objectBody, type Reply } from '../sandbox-http.js';
import {
  ENV_TARGETS,
  ENV_TYPES,
  type EnvRecord,
  type EnvType,
  type ProjectRecord,
} from './deployments-state.js';
import { badRequest, type Caller, type DeploymentsRequest, notFound, projectOf } from './deployments-wire.js';

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;

function renderEnv(env: EnvRecord, decrypt: boolean) {
  // Encrypted values come back as ciphertext unless decryption is asked for; sensitive ones never
  // come back. A legacy secret's value is the reference to the account secret, answered as stored.
  const value =
    env.type === 'sensitive'
      ? ''
      : env.type === 'encrypted' && !decrypt
        ? Buffer.from(`enc:${env.id}`).toString('base64')
        : env.value;
  // `securityIssues` is required by the current official SDK's list schema; the sandbox finds none.
  // The description types `gitBranch` as a string, never null: a variable for every branch has none.
  const { gitBranch, ...fields } = env;
  return {
    ...fields,
    ...(gitBranch === null ? {} : { gitBranch }),
    value,
    decrypted: env.type === 'encrypted' && decrypt,
    configurationId: null,
    securityIssues: [],
  };
}

function envProblem(input: Record<string, unknown>): string | undefined {
  if (typeof input.key !== 'string' || !ENV_KEY.test(input.key))
    return '`key` must be a valid variable name.';
  if (typeof input.value !== 'string') return '`value` must be a string.';
  if (!ENV_TYPES.includes(input.type as EnvType)) return `\`type\` must be one of ${ENV_TYPES.join(', ')}.`;
  const target = input.target;
  if (
    !Array.isArray(target) ||
    target.length === 0 ||
    target.some((entry) => !(ENV_TARGETS as readonly unknown[]).includes(entry))
  ) {
    return '`target` must be a non-empty list of production, preview and development.';
  }
  if (input.type === 'sensitive' && target.includes('development')) {
    return 'sensitive variables cannot target development.';
  }
  return undefined;
}

function clashOf(caller: Caller, project: ProjectRecord, input: Record<string, unknown>, exceptId?: string) {
  const targets = input.target as string[];
  const branch = typeof input.gitBranch === 'string' ? input.gitBranch : null;
  return [...caller.scope.envs.values()].find(
    (env) =>
      env.projectId === project.id &&
      env.id !== exceptId &&
      env.key === input.key &&
      env.gitBranch === branch &&
      env.target.some((target) => targets.includes(target)),
  );
}

function createEnv(request: DeploymentsRequest): Reply {
  const caller = request.caller;
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const many = Array.isArray(request.body);
  const inputs = (many ? request.body : [request.body]) as unknown[];
  if (inputs.length === 0 || inputs.some((input) => typeof input !== 'object' || input === null)) {
    return badRequest('the body must be a variable object or a list of them.');
  }
  const upsert = request.query.get('upsert') === 'true';
  const created: unknown[] = [];
  const failed: unknown[] = [];
  for (const raw of inputs as Record<string, unknown>[]) {
    const problem = envProblem(raw);
    if (problem) {
      if (!many) return badRequest(problem);
      failed.push({ error: { code: 'bad_request', message: problem, key: raw.key } });
      continue;
    }
    const clash = clashOf(caller, project, raw);
    if (clash && !upsert) {
      const error = {
        code: 'ENV_ALREADY_EXISTS',
        message: `A variable with the name "${String(raw.key)}" already exists for the target.`,
        key: raw.key,
        envVarId: clash.id,
      };
      if (!many) return json(400, { error });
      failed.push({ error });
      continue;
    }
    const fields = {
      key: raw.key as string,
      value: raw.value as string,
      type: raw.type as EnvType,
      target: [...(raw.target as string[])],
      gitBranch: typeof raw.gitBranch === 'string' ? raw.gitBranch : null,
    };
    if (clash) {
      Object.assign(clash, fields, { updatedAt: caller.now });
      created.push(renderEnv(clash, false));
    } else created.push(renderEnv(caller.world.addEnv(caller.scope, project, caller.user, fields), false));
  }
  return json(201, { created: many ? created : created[0], failed });
}

function updateEnv(request: DeploymentsRequest): Reply {
  const caller = request.caller;
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const env = caller.scope.envs.get(request.params.envId ?? '');
  if (!env || env.projectId !== project.id) return notFound('Environment variable');
  const body = objectBody(request);
  if (!body) return badRequest('the body must be a JSON object.');
  const next = { ...env, ...body };
  const problem = envProblem(next);
  if (problem) return badRequest(problem);
  if (clashOf(caller, project, next, env.id)) {
    return json(400, {
      error: {
        code: 'ENV_CONFLICT',
        message: `Another variable named "${String(next.key)}" targets the same environment.`,
      },
    });
  }
  Object.assign(env, {
    key: next.key,
    value: next.value,
    type: next.type,
    target: [...(next.target as string[])],
    gitBranch: typeof next.gitBranch === 'string' ? next.gitBranch : null,
    updatedAt: caller.now,
  });
  return json(200, renderEnv(env, false));
}

function listEnvs(request: DeploymentsRequest): Reply {
  const { scope } = request.caller;
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const decrypt = request.query.get('decrypt') === 'true';
  const branch = request.query.get('gitBranch');
  const envs = [...scope.envs.values()]
    .filter((env) => env.projectId === project.id)
    .filter((env) => branch === null || env.gitBranch === null || env.gitBranch === branch)
    .map((env) => renderEnv(env, decrypt));
  return json(200, { envs });
}

/** A project's environment variables: list (decrypted on request), create, update, delete. */
export function envRoutes(router: Router<Caller>): void {
  router
    // The description and the current official SDK list with v10; same answer.
    .on('GET', ['/v9/projects/:id/env', '/v10/projects/:id/env'], listEnvs)
    .on('POST', '/v10/projects/:id/env', createEnv)
    .on('PATCH', '/v9/projects/:id/env/:envId', updateEnv)
    .on('DELETE', '/v9/projects/:id/env/:envId', (request) => {
      const { scope } = request.caller;
      const project = projectOf(request);
      if (!project) return notFound('Project');
      const env = scope.envs.get(request.params.envId ?? '');
      if (!env || env.projectId !== project.id) return notFound('Environment variable');
      scope.envs.delete(env.id);
      return json(200, renderEnv(env, false));
    });
}
