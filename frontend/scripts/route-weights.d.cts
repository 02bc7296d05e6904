/** Types of route-weights.cjs (what a first visit to each entry route of the web app downloads). */
export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;
export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}
export interface EntryRoute {
  route: string;
  modules: string[];
  budgetKb: number;
  targetKb?: number;
}
export interface RouteWeight extends EntryRoute, Sizes {
  files: string[];
}
export declare const APP_DIR: string;
export declare const KB: number;
export declare const ENTRY_ROUTES: readonly EntryRoute[];
export declare const readManifest: (appDir?: string) => Manifest;
export declare const keyOf: (manifest: Manifest, key: string) => string;
export declare const staticClosure: (manifest: Manifest, keys: Iterable<string>) => Set<string>;
export declare const chunkCycles: (manifest: Manifest) => string[];
export declare const jsFiles: (manifest: Manifest, keys: Iterable<string>) => string[];
export declare const fileSizes: (appDir: string, file: string) => Sizes;
export declare const routeWeights: (appDir?: string, manifest?: Manifest) => RouteWeight[];
export declare const indexHtmlScripts: (appDir?: string) => { entry: string[]; preloads: string[] };
export declare const entryStaticImports: (manifest: Manifest) => string[];
export declare const formatRouteTable: (rows: RouteWeight[]) => string;
