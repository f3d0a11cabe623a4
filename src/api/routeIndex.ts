// koa-router tests every route's regular expression on every request: the API's 500 routes cost GET
// /user a tenth of its CPU. A route whose path has a literal segment at some position matches only
// requests with that segment there (path parameters never span a slash, and the rest-of-path ones are
// last), so `indexRoutes` makes the router test only the routes whose literal segments at a few positions
// fit the request's: the same routes, in the same order, hence the same match.
import type { Layer, MatchResult, Router } from '@koa/router';

/** Where the API's paths differ: /api/v1/<3>/<4>/…, and /api/v1/repos/{owner}/{repo}/<6>. */
const positions = [3, 4, 6];
/** Fewer routes than this are tested one by one, as koa-router does. */
const leafSize = 8;

interface Node {
  layers: Layer[];
  pos?: number;
  children?: Map<string, Node>;
  /** The routes with no literal at `pos`: what a segment that is none of the literals may match. */
  other?: Node;
}

// A segment of a route's path that is plain text in path-to-regexp's syntax (no parameter, wildcard,
// group or escape), as koa-router compares it: case-insensitively.
const plainSegment = /^[A-Za-z0-9._~-]+$/;
const literalAt = (layer: Layer, pos: number): string | undefined => {
  const s = typeof layer.path === 'string' ? layer.path.split('/')[pos] : undefined;
  return s !== undefined && plainSegment.test(s) ? s.toLowerCase() : undefined;
};

function build(layers: Layer[], rest: number[]): Node {
  if (layers.length <= leafSize || rest.length === 0) return { layers };
  const [pos, ...deeper] = rest as [number, ...number[]];
  const literals = new Set(layers.map((l) => literalAt(l, pos)).filter((v): v is string => v !== undefined));
  if (literals.size === 0) return build(layers, deeper);
  const children = new Map<string, Node>();
  for (const v of literals) children.set(v, build(layers.filter((l) => { const lit = literalAt(l, pos); return lit === undefined || lit === v; }), deeper));
  return { layers, pos, children, other: build(layers.filter((l) => literalAt(l, pos) === undefined), deeper) };
}

/** Only ASCII is folded here as the routes' case-insensitive expressions fold it; anything else is tested against every route. */
const ascii = /^[\x20-\x7e]*$/;

/**
 * Replaces `router.match` by one that tests only the routes the request's path can match. Call it once
 * every route is registered (a route added later would not be found).
 */
export function indexRoutes(router: Router): void {
  const all = router.stack;
  // A route given as a regular expression has no segments to compare: leave such a router as it is.
  if (all.some((l) => typeof l.path !== 'string')) return;
  const root = build(all, positions);
  router.match = (path: string, method: string): MatchResult => {
    let node = root;
    if (node.children && ascii.test(path)) {
      const segments = path.split('/');
      while (node.children) {
        const s = segments[node.pos!];
        node = (s === undefined ? undefined : node.children.get(s.toLowerCase())) ?? node.other!;
      }
    }
    const candidates = node.children ? all : node.layers;
    // koa-router's own match, over the candidates.
    const result: MatchResult = { path: [], pathAndMethod: [], route: false };
    const verb = method.toUpperCase();
    for (const layer of candidates) {
      if (!layer.match(path)) continue;
      result.path.push(layer);
      if (layer.methods.length === 0 || layer.methods.includes(verb)) {
        result.pathAndMethod.push(layer);
        if (layer.methods.length > 0) result.route = true;
      }
    }
    return result;
  };
}
