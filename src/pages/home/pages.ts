/** The pages of config/routes.ts the dashboard may link to: named, in the shell, open to the user. */
import type { AccessFlags } from '@/access';
import routes, { type PortalRoute } from '../../../config/routes';

export interface OpenablePage {
  path: string;
  name: string;
  /** The module it belongs to (several modules have a 概览). */
  module: string | null;
}

interface Found {
  route: PortalRoute;
  flags: NonNullable<PortalRoute['access']>[];
  module: PortalRoute | undefined;
}

function find(list: PortalRoute[], path: string, flags: Found['flags'], module?: PortalRoute): Found | undefined {
  for (const r of list) {
    const here = r.access ? [...flags, r.access] : flags;
    if (r.path === path && r.component) return { route: r, flags: here, module };
    const inner = r.routes && find(r.routes, path, here, module ?? r);
    if (inner) return inner;
  }
  return undefined;
}

/** The page at `path` when the user may open it from a link, else null (unknown, hidden, or closed to them). */
export function openablePage(path: string, access: AccessFlags): OpenablePage | null {
  const found = find(routes, path, []);
  if (!found) return null;
  const { route, flags, module } = found;
  if (!route.name || route.hideInMenu || route.layout === false || route.path === '/home') return null;
  if (!flags.every((f) => access[f])) return null;
  return { path, name: route.name, module: module?.name ?? null };
}

export function openablePages(paths: string[], access: AccessFlags, limit: number): OpenablePage[] {
  return paths.flatMap((p) => openablePage(p, access) ?? []).slice(0, limit);
}
