import { ROUTES } from './api-contract.js';
import type { RouteSpec } from './route-spec.js';

export interface MatchedRoute {
  route: RouteSpec;
  params: Record<string, string>;
}

/** A template's segments: literal text, or `{name}` for one path segment. */
const compiled = ROUTES.map((route) => ({ route: route as RouteSpec, segments: route.path.split('/') }));

/**
 * The route for a method and path, with its path parameters (decoded; a
 * segment that does not decode matches nothing). `allowed` lists the
 * methods the path has when the method is wrong, for a 405.
 */
export function matchRoute(
  method: string,
  pathname: string,
): MatchedRoute | { allowed: string[] } | undefined {
  const parts = pathname.split('/');
  const allowed: string[] = [];
  for (const { route, segments } of compiled) {
    const params = matchSegments(segments, parts);
    if (!params) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  return allowed.length ? { allowed } : undefined;
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    const part = parts[index]!;
    if (segment.startsWith('{')) {
      let value: string;
      try {
        value = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      if (!value || value.includes('/')) return undefined;
      params[segment.slice(1, -1)] = value;
    } else if (segment !== part) return undefined;
  }
  return params;
}
