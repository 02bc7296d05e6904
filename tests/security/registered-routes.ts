import fs from 'node:fs';

interface RegisteredRoute {
  path: string;
  methods: string[];
}

/** The routes the running server registered as `METHOD path` keys (tests/harness/global-setup.js writes them). */
export const registered = (): { api: string[]; admin: string[] } => {
  const file = process.env.BRANCHIFY_ROUTES_FILE;
  if (!file) throw new Error('BRANCHIFY_ROUTES_FILE is not set (tests/harness/global-setup.js writes it)');
  const routes = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<'content-api' | 'admin', RegisteredRoute[]>;
  // Router prefix layers (`/api([^/]*)`) carry no method and name no route.
  const keys = (list: RegisteredRoute[]) => list.flatMap((r) => r.methods.map((m) => `${m} ${r.path}`));
  return { api: keys(routes['content-api']), admin: keys(routes.admin) };
};
