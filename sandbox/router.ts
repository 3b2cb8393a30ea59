import type { Reply, SandboxRequest } from './sandbox-http.js';

/**
 * What every route handler of every emulator receives: the request as the
 * server parsed it, the route's decoded `:params`, the path below the
 * emulator's own prefix, and `caller`, whoever the emulator authenticated
 * (an account, a key, a user in a team). One shape for all emulators, so a
 * handler never casts to find out who is calling.
 */
export interface RouteRequest<Caller> extends SandboxRequest {
  readonly caller: Caller;
}

export type RouteHandler<Caller> = (request: RouteRequest<Caller>) => Reply | Promise<Reply>;

interface Route<Caller> {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  handler: RouteHandler<Caller>;
}

/** A route's handler with its params, 'method' when only the method is wrong, or undefined. */
export type RouteMatch<Caller> =
  | { handler: RouteHandler<Caller>; params: Record<string, string> }
  | 'method'
  | undefined;

/**
 * Routes like `/api/v2/tickets/:id.json`. A `:name` matches one path segment
 * up to a dot or slash; the matched values arrive decoded in `params`.
 */
export class Router<Caller> {
  private readonly routes: Route<Caller>[] = [];

  /**
   * Registers a handler for one method or several, at one template or
   * several. Several templates are one route spelled several ways (an API
   * version and its successor, a path with and without `.json`), so a reader
   * sees the aliases together and the handler named once. They are tried in
   * the order given (every method at the first template, then at the next),
   * as if registered one after another.
   */
  on(
    methods: string | readonly string[],
    templates: string | readonly string[],
    handler: RouteHandler<Caller>,
  ): this {
    for (const template of typeof templates === 'string' ? [templates] : templates)
      for (const method of typeof methods === 'string' ? [methods] : methods)
        this.add(method, template, handler);
    return this;
  }

  private add(method: string, template: string, handler: RouteHandler<Caller>): void {
    const names: string[] = [];
    const source = template
      .split(/(:[a-zA-Z_]+)/)
      .map((part) => {
        if (part.startsWith(':')) {
          names.push(part.slice(1));
          return '([^/]+?)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    this.routes.push({ method, template, pattern: new RegExp(`^${source}$`), names, handler });
  }

  match(request: Pick<SandboxRequest, 'method' | 'path'>): RouteMatch<Caller> {
    let pathMatched = false;
    for (const route of this.routes) {
      const found = route.pattern.exec(request.path);
      if (!found) continue;
      pathMatched = true;
      if (route.method !== request.method) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, index) => {
        params[name] = decodeURIComponent(found[index + 1] ?? '');
      });
      return { handler: route.handler, params };
    }
    return pathMatched ? 'method' : undefined;
  }

  /** Every method and template served, in registration order: what tests hold official clients against. */
  served(): { method: string; template: string }[] {
    return this.routes.map(({ method, template }) => ({ method, template }));
  }

  /** Runs a matched route with the caller the emulator authenticated. */
  run(
    found: Exclude<RouteMatch<Caller>, 'method' | undefined>,
    request: SandboxRequest,
    caller: Caller,
  ): Reply | Promise<Reply> {
    return found.handler({ ...request, params: found.params, caller });
  }
}
