/**
 * Starts the page of the first URL before React's first render.
 *
 * Umi gives every route a React.lazy component, and React loads one only when it first renders it.
 * So a first visit went: the loading screen, GET /api/user/me, the layout, then the page suspended
 * while its chunks ran, and React rendered it again later in 5 ms slices (a Suspense retry). Here
 * the lazy components of the routes that match the URL are initialised from Umi's `patchRoutes`
 * (src/app.tsx), while umi.js still runs: their chunks (already downloading, see preload_helper)
 * run while GET /api/user/me is on its way, and the first render after it renders the page at once.
 *
 * React.lazy keeps its state in `_payload` and starts loading in `_init(_payload)`, which throws the
 * pending import; that is the shape every React since 16.6 has, and the one Umi's own route prefetch
 * reads. Anything else (a route component that is not lazy) is left alone.
 */
import { matchRoutes } from '@umijs/max';

export interface RouteRecord {
  id: string;
  path?: string;
  parentId?: string;
  redirect?: string;
}
interface LazyComponent {
  _payload?: unknown;
  _init?: (payload: unknown) => unknown;
}
interface RouteTree {
  id: string;
  path?: string;
  children?: RouteTree[];
}

function tree(routes: RouteRecord[], parentId?: string): RouteTree[] {
  return routes
    .filter((route) => route.parentId === parentId)
    .map((route) => {
      const children = tree(routes, route.id);
      return { id: route.id, path: route.path, ...(children.length ? { children } : {}) };
    });
}

/** The ids of the routes rendered for `pathname`, outermost first (a layout, then its page). */
export function matchedRouteIds(routes: Record<string, RouteRecord>, pathname: string): string[] {
  const all = Object.values(routes);
  return (matchRoutes(tree(all), pathname) ?? [])
    .map((match) => (match.route as RouteTree).id)
    .filter((id) => !routes[id]?.redirect);
}

/** Initialises the lazy components of those routes; returns the ids it started. */
export function preloadRouteComponents(
  routes: Record<string, RouteRecord>,
  components: Record<string, unknown>,
  pathname: string,
): string[] {
  const started: string[] = [];
  for (const id of matchedRouteIds(routes, pathname)) {
    const lazy = components[id] as LazyComponent | undefined;
    if (typeof lazy?._init !== 'function' || lazy._payload === undefined) continue;
    try {
      lazy._init(lazy._payload);
    } catch {
      // React.lazy throws the pending import here. It keeps the outcome for the page's render, so a
      // chunk that fails to load shows there (ChunkErrorBoundary), as before.
    }
    started.push(id);
  }
  return started;
}
