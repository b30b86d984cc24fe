/**
 * ConfabApp's router: a route table matched against the app's location (history.ts: the browser's
 * URL under a base path, or memory), with the few hooks its pages use (useLocation, useParams,
 * useSearchParams, <Navigate>, <Outlet>). Navigation is the provider's navigate, which ConfabApp
 * points at the same history. No router library: react-router cost every route ~13 kB gzip, a
 * seventh of the sign-in pages' budget.
 *
 * Matching, in declaration order (so static paths are listed before `:param` ones):
 * - a route with `path` consumes those segments (`:name` captures one, `*` the rest);
 * - a route without `path` or `index` is a layout that consumes nothing;
 * - `index` matches when nothing is left; a route without children must consume everything.
 * Every element of the matched chain renders its child through <Outlet />, so a layout stays
 * mounted while its child changes, and every level sees all of the match's params.
 */
import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import { useNavigate } from '../provider/hooks';
import type { AppHistory, AppLocation } from './history';

export interface RouteDefinition {
  path?: string;
  index?: boolean;
  element: ReactElement;
  children?: RouteDefinition[];
}

export type Params = Readonly<Record<string, string>>;

interface Match {
  chain: ReactElement[];
  params: Record<string, string>;
}

export function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** The chain of elements `routes` match for `segments`, or null. Exported for its tests. */
export function matchRoutes(routes: RouteDefinition[], segments: string[], params: Record<string, string> = {}): Match | null {
  for (const route of routes) {
    const match = matchRoute(route, segments, params);
    if (match !== null) return match;
  }
  return null;
}

function matchRoute(route: RouteDefinition, segments: string[], params: Record<string, string>): Match | null {
  if (route.index === true) return segments.length === 0 ? { chain: [route.element], params } : null;
  const own = route.path === undefined ? [] : segmentsOf(route.path);
  const captured: Record<string, string> = { ...params };
  let consumed = 0;
  for (const pattern of own) {
    if (pattern === '*') {
      consumed = segments.length;
      break;
    }
    const segment = segments[consumed];
    if (segment === undefined) return null;
    if (pattern.startsWith(':')) captured[pattern.slice(1)] = decodeSegment(segment);
    else if (pattern !== segment) return null;
    consumed += 1;
  }
  const rest = segments.slice(consumed);
  if (route.children === undefined) return rest.length === 0 ? { chain: [route.element], params: captured } : null;
  const child = matchRoutes(route.children, rest, captured);
  return child === null ? null : { chain: [route.element, ...child.chain], params: child.params };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape is kept as typed; the page decides what it means
  }
}

interface RouterState {
  location: AppLocation;
  params: Params;
}

const RouterContext = createContext<RouterState | null>(null);
const OutletContext = createContext<ReactNode>(null);

/** Renders the chain `routes` match for the history's location; `fallback` when none does. */
export function Router({ history, routes, fallback }: { history: AppHistory; routes: RouteDefinition[]; fallback: ReactElement }) {
  const location = useSyncExternalStore(history.subscribe, history.location, history.location);
  const match = useMemo(() => matchRoutes(routes, segmentsOf(location.pathname)), [routes, location.pathname]);
  const state = useMemo<RouterState>(() => ({ location, params: match?.params ?? {} }), [location, match]);
  const tree = (match?.chain ?? [fallback]).reduceRight<ReactNode>(
    (outlet, element) => <OutletContext.Provider value={outlet}>{element}</OutletContext.Provider>,
    null,
  );
  return <RouterContext.Provider value={state}>{tree}</RouterContext.Provider>;
}

function useRouterState(): RouterState {
  const state = useContext(RouterContext);
  if (state === null) throw new Error('Router hooks are used inside <Router>.');
  return state;
}

/** The matched child route's element, inside a layout. */
export function Outlet() {
  return <>{useContext(OutletContext)}</>;
}

export function useLocation(): AppLocation {
  return useRouterState().location;
}

export function useParams(): Params {
  return useRouterState().params;
}

export function useSearchParams(): URLSearchParams {
  const { search } = useRouterState().location;
  return useMemo(() => new URLSearchParams(search), [search]);
}

/** Navigates once rendered (a redirect), replacing the history entry when asked. */
export function Navigate({ to, replace = false }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}
