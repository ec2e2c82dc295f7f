/**
 * Which route of a route table a request names, as API Gateway (HTTP API) picks it: the most
 * specific template wins, and a path some route has but not with this method is told apart
 * from one no route has. The local host dispatches with it, and the function behind the API's
 * `$default` route uses it to say which of the two a request it was handed is.
 */
import { TesseraError } from '../errors';

export interface RouteTemplate {
  method: string;
  /** API Gateway syntax: `/v1/users/{id}`, `{proxy+}` for a greedy last segment. */
  path: string;
}

export type RouteMatch<R extends RouteTemplate> =
  | { kind: 'found'; route: R; pathParameters: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

/** A template taken apart once: each segment a literal, a `{param}` or a last `{greedy+}`. */
type TemplatePart = { kind: 'literal'; text: string } | { kind: 'param'; name: string } | { kind: 'greedy'; name: string };
interface CompiledTemplate<R> {
  route: R;
  parts: TemplatePart[];
  rank: number[];
}

/** The templates of a route table, taken apart on its first request rather than on every one. */
const compiledTables = new WeakMap<readonly RouteTemplate[], CompiledTemplate<RouteTemplate>[]>();

function compileTemplate(template: string): TemplatePart[] {
  const parts = template.split('/');
  return parts.map((part, i) => {
    const greedy = /^\{(\w+)\+\}$/.exec(part);
    if (greedy && i === parts.length - 1) return { kind: 'greedy', name: greedy[1]! };
    const param = /^\{(\w+)\}$/.exec(part);
    return param ? { kind: 'param', name: param[1]! } : { kind: 'literal', text: part };
  });
}

function compiledTable<R extends RouteTemplate>(routes: readonly R[]): CompiledTemplate<R>[] {
  let compiled = compiledTables.get(routes);
  if (!compiled) {
    compiled = routes.map((route) => ({ route, parts: compileTemplate(route.path), rank: specificity(route.path) }));
    compiledTables.set(routes, compiled);
  }
  return compiled as CompiledTemplate<R>[];
}

/** Finds the route of a request; like API Gateway, the most specific template wins. */
export function matchRoute<R extends RouteTemplate>(routes: readonly R[], method: string, rawPath: string): RouteMatch<R> {
  const segments = rawPath.split('/');
  const candidates = compiledTable(routes).flatMap((template) => {
    const params = matchTemplate(template.parts, segments);
    return params ? [{ route: template.route, params, rank: template.rank }] : [];
  });
  if (candidates.length === 0) return { kind: 'not_found' };
  const withMethod = candidates.filter((c) => c.route.method === method.toUpperCase());
  if (withMethod.length === 0) {
    return { kind: 'method_not_allowed', allow: [...new Set(candidates.map((c) => c.route.method))].sort() };
  }
  const best = withMethod.reduce((a, b) => (compareRank(b.rank, a.rank) > 0 ? b : a));
  return { kind: 'found', route: best.route, pathParameters: best.params };
}

function matchTemplate(parts: TemplatePart[], segments: string[]): Record<string, string> | undefined {
  // Most templates differ from the path in their number of segments: no work for those.
  const last = parts[parts.length - 1]!;
  if (last.kind === 'greedy' ? segments.length < parts.length : segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    if (part.kind === 'greedy') {
      const rest = segments.slice(i).join('/');
      if (!rest) return undefined;
      params[part.name] = decodePathValue(rest);
      return params;
    }
    const segment = segments[i]!;
    if (part.kind === 'param') {
      if (!segment) return undefined;
      params[part.name] = decodePathValue(segment);
    } else if (part.text !== segment) {
      return undefined;
    }
  }
  return params;
}

/** Per segment: 2 literal, 1 `{param}`, 0 `{greedy+}`; compared left to right. */
const specificity = (template: string): number[] =>
  template.split('/').map((part) => (part.endsWith('+}') ? 0 : part.startsWith('{') ? 1 : 2));

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

function decodePathValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // a malformed escape reaches the handler as sent; its validation answers 400
  }
}

/**
 * The answer to a request no route takes: 405 with `Allow` when the path is one of the table's
 * under another method, else 404. API Gateway sends such a request to the `$default` route.
 */
export function unmatchedRequestError(routes: readonly RouteTemplate[], method: string, rawPath: string): TesseraError {
  const match = matchRoute(routes, method, rawPath);
  if (match.kind === 'method_not_allowed') {
    const allow = match.allow.join(', ');
    return new TesseraError('method_not_allowed', `${method} is not allowed here; use ${allow}`, { headers: { allow } });
  }
  return new TesseraError('not_found', `No route matches ${rawPath}`);
}
