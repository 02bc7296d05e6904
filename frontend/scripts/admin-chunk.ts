import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * One chunk for the admin panel's first screen instead of ~50 small ones (MUI and react-admin
 * pieces under 3 KB), each a request on HTTP/1.1's six connections per origin.
 *
 * The build runs twice. The first build (BRANCHIFY_CHUNK_PLAN set) keeps Rolldown's own chunks and
 * writes the plan: the modules of every chunk that only the panel loads (each way to it from the
 * entry, static or lazy, passes through the panel's chunk) and that the first screen loads (the
 * panel's or its users list's chunk imports it, statically). The second build puts those modules
 * in one chunk and leaves every other module where Rolldown put it. The chunk graph stays acyclic:
 * a chunk other pages can load never imports one only the panel loads, and the new chunk imports
 * only chunks the first screen loads, which are either in it or loadable without the panel.
 *
 * The plan comes from a real build rather than from the import graph because tree-shaking decides
 * where a module is used: a barrel file (`@mui/material/styles`) reaches modules that only the panel
 * keeps.
 */
const PANEL = 'src/admin/AdminApp.tsx';
const USERS_LIST = 'src/admin/users/UserList.tsx';
const CHUNK_NAME = 'admin';

interface BundleChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  moduleIds: readonly string[];
  imports: readonly string[];
  dynamicImports: readonly string[];
}

/** Where the first build leaves the plan for the second. */
export const planFile = (frontendDir: string) => path.join(frontendDir, 'node_modules', '.cache', 'branchify', 'admin-chunk-plan.json');

/** The modules the first screen loads that only the panel loads, from a bundle in Rolldown's own chunks. */
const planFrom = (chunks: Map<string, BundleChunk>, frontendDir: string): string[] => {
  const byFacade = (file: string) => [...chunks.values()].find((c) => c.facadeModuleId === path.join(frontendDir, file));
  const entry = [...chunks.values()].find((c) => c.isEntry);
  const panel = byFacade(PANEL);
  const usersList = byFacade(USERS_LIST);
  if (!entry || !panel || !usersList) throw new Error(`admin chunk plan: no chunk for the entry, ${PANEL} or ${USERS_LIST}`);

  const reach = (from: BundleChunk[], edges: (c: BundleChunk) => readonly string[], stopAt?: BundleChunk) => {
    const seen = new Set<string>();
    const stack = from.map((c) => c.fileName);
    while (stack.length) {
      const file = stack.pop()!;
      if (seen.has(file) || file === stopAt?.fileName) continue;
      seen.add(file);
      const chunk = chunks.get(file);
      if (chunk) stack.push(...edges(chunk));
    }
    return seen;
  };
  const withoutPanel = reach([entry], (c) => [...c.imports, ...c.dynamicImports], panel);
  const firstScreen = reach([panel], (c) => c.imports);
  return (
    [...firstScreen]
      .filter((file) => !withoutPanel.has(file))
      .flatMap((file) => chunks.get(file)!.moduleIds)
      // Files only (virtual modules such as Rolldown's runtime are not the panel's).
      .filter((id) => path.isAbsolute(id))
      .map((id) => path.relative(frontendDir, id))
  );
};

/** The first build: writes the plan from the bundle Rolldown made on its own. */
export const writeAdminChunkPlan = (frontendDir: string): Plugin => ({
  name: 'branchify-admin-chunk-plan',
  generateBundle(_options, bundle) {
    const chunks = new Map(Object.values(bundle).flatMap((o) => (o.type === 'chunk' ? [[o.fileName, o as unknown as BundleChunk] as const] : [])));
    const file = planFile(frontendDir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(planFrom(chunks, frontendDir), null, 1));
  },
});

/** The second build's chunk group: the planned modules in one chunk, the others where Rolldown puts them. */
export const adminFirstScreenChunk = (frontendDir: string) => {
  const file = planFile(frontendDir);
  if (!fs.existsSync(file))
    throw new Error(`no admin chunk plan at ${file}: build with BRANCHIFY_CHUNK_PLAN=1 first (npm run build -w @branchify/frontend does)`);
  const members = new Set((JSON.parse(fs.readFileSync(file, 'utf8')) as string[]).map((id) => path.join(frontendDir, id)));
  return {
    debugName: 'admin first screen',
    name: (id: string): string | null => (members.has(id) ? CHUNK_NAME : null),
    // Only the planned modules: those they share with other pages keep their own chunks.
    includeDependenciesRecursively: false,
  };
};
