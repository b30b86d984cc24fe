// Types of scripts/sizeBudget.mjs for its TypeScript test (apps/reference/e2e/sizeBudget.test.ts).

export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** apps/reference/routeBudgets.json: each route's page modules (manifest keys) and budget. */
export interface RouteBudgets {
  routes: { route: string; pages: string[]; limitKb: number; targetKb?: number }[];
}

export interface RouteRow {
  route: string;
  files: string[];
  gzipBytes: number;
  limitBytes: number;
  ok: boolean;
  targetBytes?: number;
  meetsTarget?: boolean;
}

export function gzipSize(bytes: Uint8Array | string): number;
export function routeFiles(manifest: Manifest, pageKeys: string[]): string[];
export function entryKeyOf(manifest: Manifest): string;
export function builtRouteFiles(app: string): { route: string; files: string[] }[];
export function budgetedRouteFiles(input: { manifest: Manifest; budgets: RouteBudgets }): { route: string; files: string[] }[];
export function measureRoutes(input: { manifest: Manifest; budgets: RouteBudgets; readAsset: (file: string) => Uint8Array | string }): RouteRow[];
export function formatTable(rows: RouteRow[]): string;
