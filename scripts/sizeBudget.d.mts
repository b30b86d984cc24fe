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

export interface RouteTable {
  pages: Record<string, string>;
  budgets: { route: string; pages: string[]; limitKb: number }[];
}

export interface RouteRow {
  route: string;
  files: string[];
  gzipBytes: number;
  limitBytes: number;
  ok: boolean;
}

export function gzipSize(bytes: Uint8Array | string): number;
export function routeFiles(manifest: Manifest, pageKeys: string[]): string[];
export function entryKeyOf(manifest: Manifest): string;
export function budgetedRouteFiles(manifest: Manifest, routeTable: RouteTable): { route: string; files: string[] }[];
export function builtRouteFiles(app: string): { route: string; files: string[] }[];
export function measureRoutes(input: { manifest: Manifest; routeTable: RouteTable; readAsset: (file: string) => Uint8Array | string }): RouteRow[];
export function formatTable(rows: RouteRow[]): string;
