/**
 * Who may use what, declared once (ADR 0015, 0055). API routes declare their level in their own
 * Fastify options (server/http/auth.ts); pages declare theirs here. The browser's guards, the
 * admin menu, the server's request metrics and the tests all read these: nothing types them again.
 * Schema-free: browser code imports it.
 */

export const ACCESS_LEVELS = ["public", "user", "admin", "super"] as const;
/**
 * public: anyone; user: a signed-in, enabled site member; admin: a signed-in, enabled back-office
 * admin of either role (content); super: an admin whose role is super (admins, sources, users, settings).
 */
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** A page of web/app/routes.ts and who may open it. */
export interface PageAccess {
  /** React Router's pattern of the page (`:name` is one segment). */
  readonly path: string;
  readonly access: AccessLevel;
  /** A login page: an account of this kind already signed in is sent on (spec section 4, 'guest'). */
  readonly guestsOf?: "user" | "admin";
}

/**
 * Every page. Pages are HTML for everyone (tokens live in localStorage), so the browser enforces
 * these; the API routes each page calls enforce the same levels on the server.
 */
export const PAGES: readonly PageAccess[] = [
  { path: "/", access: "public" },
  { path: "/site/:file", access: "public" },
  { path: "/sutie/:file", access: "public" },
  { path: "/sort/:diyname", access: "public" },
  { path: "/login", access: "public", guestsOf: "user" },
  { path: "/forgot-password", access: "public", guestsOf: "user" },
  { path: "/user/profile", access: "user" },
  { path: "/user/favorites", access: "user" },
  { path: "/user/downloads", access: "user" },
  { path: "/user/coinlog", access: "user" },
  { path: "/panda/login", access: "public", guestsOf: "admin" },
  { path: "/panda", access: "admin" },
  { path: "/panda/block", access: "admin" },
  { path: "/panda/add", access: "admin" },
  { path: "/panda/edit/:id", access: "admin" },
  { path: "/panda/sutieList", access: "admin" },
  { path: "/panda/sutieCategory", access: "admin" },
  { path: "/panda/collectData", access: "admin" },
  { path: "/panda/comments", access: "admin" },
  { path: "/panda/userList", access: "super" },
  { path: "/panda/sources", access: "super" },
  { path: "/panda/plugins", access: "super" },
  { path: "/panda/admins", access: "super" },
  { path: "/panda/audit", access: "super" },
  { path: "/panda/settings", access: "super" },
];

/** A pattern as a regular expression; case-insensitive and with an optional trailing slash, as React Router matches. */
function compile(path: string): RegExp {
  const body = (path === "/" ? "" : path)
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}/?$`, "i");
}

const COMPILED = PAGES.map((page) => ({ page, re: compile(page.path) }));

/** The page a pathname opens, or undefined (the not-found page, public). */
export function pageOf(pathname: string): PageAccess | undefined {
  return COMPILED.find(({ re }) => re.test(pathname))?.page;
}

/** The level needed to open a pathname: public for pages not declared (the not-found page). */
export function pageAccess(pathname: string): AccessLevel {
  return pageOf(pathname)?.access ?? "public";
}
