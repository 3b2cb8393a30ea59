import type { Handler, SandboxRequest } from './sandbox-http.js';

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

/**
 * Routes like `/api/v2/tickets/:id.json`. A `:name` matches one path segment
 * up to a dot or slash; the matched values arrive decoded in `params`.
 */
export class Router {
  private readonly routes: Route[] = [];

  on(method: string, template: string, handler: Handler): this {
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
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler });
    return this;
  }

  /** The handler for a request, or 'method' when only the method is wrong, or undefined. */
  match(
    request: Pick<SandboxRequest, 'method' | 'path'>,
  ): { handler: Handler; params: Record<string, string> } | 'method' | undefined {
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
}
