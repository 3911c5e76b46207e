import { getSortQuerySchema } from "@contracts/category";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

/**
 * Which kept page a request is for. A kept page is the same bytes for every visitor, so it is
 * rendered at its canonical address (`url`), never the request's: the Host, the headers and any
 * query parameter the page does not read cannot reach what others are sent, and junk query
 * strings map to the same key.
 */
export type PageTarget =
  | { kind: "home" | "shell" | "not-found"; key: string; url: string }
  | { kind: "category"; key: string; url: string; diyname: string }
  | { kind: "suite"; key: string; url: string; id: number; prefix: "site" | "sutie" };

/** The page of an unknown category: the same for every slug. */
export const MISSING_CATEGORY: PageTarget = { kind: "not-found", key: "sort-missing", url: "/sort/~" };

/** The page of a missing suite, per address form (their route ids differ); rendered at the asked one. */
export function missingSuite(prefix: "site" | "sutie", url: string): PageTarget {
  return { kind: "not-found", key: `${prefix}-missing`, url };
}

const NOT_FOUND: PageTarget = { kind: "not-found", key: "404", url: "/__not-found__" };

/** Rendered at start-up, before the first request: the pages every visitor and crawler asks for. */
export const WARM_TARGETS: PageTarget[] = [
  { kind: "home", key: "home", url: "/" },
  { kind: "shell", key: "/login", url: "/login" },
  { kind: "shell", key: "/forgot-password", url: "/forgot-password" },
  NOT_FOUND,
];
const SLUG = /^[A-Za-z0-9_-]{1,64}$/;
const SUITE_FILE = /^([1-9]\d{0,9})\.html$/;
const SHELLS: Record<string, string> = { "routes/login": "/login", "routes/forgot-password": "/forgot-password" };

type Leaf = { id: string | undefined; params: Record<string, string | undefined> };

/**
 * The addresses of kept pages, matched without React Router's matchRoutes (which flattens and
 * ranks every route per call, ~0.1 ms): each regex stands for the route it names, which
 * `pageTargets` checks against matchRoutes at start-up.
 */
const FAST: [RegExp, (m: RegExpExecArray) => Leaf][] = [
  [/^\/$/, () => ({ id: "routes/home", params: {} })],
  [/^\/(site|sutie)\/([^/]+)$/, (m) => ({ id: `${m[1]}-detail`, params: { file: m[2] } })],
  [/^\/sort\/([^/]+)$/, (m) => ({ id: "routes/sort", params: { diyname: m[1] } })],
  [/^\/(login|forgot-password)$/, (m) => ({ id: `routes/${m[1]}`, params: {} })],
];
const FAST_SAMPLES = ["/", "/site/1.html", "/sutie/2.html", "/sort/club", "/login", "/forgot-password"];
/**
 * Other paths' matches are remembered (404s asked again and again), up to this many. A memo of a
 * pure computation (the routes are fixed per build), not a cache of data: no event concerns it.
 */
const MATCH_MEMO_MAX = 2_000;

/** React Router's routes as a tree, for matching a path the way the page handler will. */
function routeTree(routes: ServerBuild["routes"], parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((r) => r !== undefined && r.parentId === parentId)
    .map((r) => ({ id: r!.id, path: r!.path, index: r!.index, caseSensitive: r!.caseSensitive, children: routeTree(routes, r!.id) }) as RouteObject);
}

/**
 * Classifies request URLs: the target of a page that is kept, or null for everything rendered
 * per request as before (/panda, /user/*, other spellings of an address, bad query values).
 */
export function pageTargets(build: ServerBuild): (url: string) => PageTarget | null {
  const tree = routeTree(build.routes);
  const matched = (pathname: string): Leaf | undefined => {
    const leaf = matchRoutes(tree, pathname)?.at(-1);
    return leaf && { id: leaf.route.id, params: leaf.params };
  };
  const fast = (pathname: string): Leaf | undefined => {
    for (const [pattern, leaf] of FAST) {
      const m = pattern.exec(pathname);
      if (m) return leaf(m);
    }
  };
  for (const sample of FAST_SAMPLES) {
    if (JSON.stringify(fast(sample)) !== JSON.stringify(matched(sample))) throw new Error(`page-keys: ${sample} is no longer the route its regex names`);
  }
  const memo = new Map<string, Leaf | undefined>();
  const leafOf = (pathname: string) => {
    const known = fast(pathname);
    if (known) return known;
    if (memo.has(pathname)) return memo.get(pathname);
    if (memo.size >= MATCH_MEMO_MAX) memo.clear();
    const leaf = matched(pathname);
    memo.set(pathname, leaf);
    return leaf;
  };
  // React Router's own requests: route data for client navigation (`/x.data`) and lazy route discovery.
  const manifestPath = build.routeDiscovery?.mode === "lazy" ? build.routeDiscovery.manifestPath : undefined;
  return (url) => {
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    if (pathname.endsWith(".data") || pathname === manifestPath) return null;
    if (pathname.startsWith("/user/") || pathname === "/user" || pathname.startsWith("/panda")) return null;
    const leaf = leafOf(pathname);
    if (!leaf) return null;
    const { params } = leaf;
    switch (leaf.id) {
      case "routes/home":
        return pathname === "/" ? { kind: "home", key: "home", url: "/" } : null;
      case "routes/not-found":
        return NOT_FOUND;
      case "routes/sort": {
        const diyname = params.diyname ?? "";
        if (!SLUG.test(diyname) || pathname !== `/sort/${diyname}`) return null;
        const search = new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
        const query = getSortQuerySchema.safeParse({ diyname, page: search.get("page") ?? undefined, filter: search.get("filter") ?? undefined });
        if (!query.success) return null;
        const { page, filter } = query.data;
        return { kind: "category", key: `sort:${diyname}:${page}:${filter}`, url: `/sort/${diyname}?page=${page}&filter=${filter}`, diyname };
      }
      case "site-detail":
      case "sutie-detail": {
        const prefix = leaf.id === "site-detail" ? "site" : "sutie";
        const file = SUITE_FILE.exec(params.file ?? "");
        const id = file ? Number(file[1]) : NaN;
        if (!(id <= 2_147_483_647) || pathname !== `/${prefix}/${id}.html`) return null;
        return { kind: "suite", key: `${prefix}:${id}`, url: pathname, id, prefix };
      }
      default: {
        const shell = SHELLS[leaf.id ?? ""];
        return shell && pathname === shell ? { kind: "shell", key: shell, url: shell } : null;
      }
    }
  };
}
