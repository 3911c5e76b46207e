/**
 * Pages declare who may open them once (contracts/access.ts, ADR 0055): every page of routes.ts is
 * declared, nothing else is, and the guards and admin menu follow the declaration.
 */
import { ACCESS_LEVELS, PAGES, pageAccess, pageOf } from "@contracts/access";
import { describe, expect, it } from "vitest";
import { adminMenuFor, isSuperOnly } from "../components/admin/admin-menu";
import routes from "../routes";
import { collectMiddleware, pageMiddleware } from "./registry";

interface RouteEntry {
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}

/** The full pattern of every page (a leaf of the route tree; the splat is the not-found page). */
function pagePaths(entries: readonly RouteEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parent.replace(/\/$/, "")}/${entry.path}` : parent;
    if (entry.children?.length) return pagePaths(entry.children, path);
    return entry.path === "*" ? [] : [path || "/"];
  });
}

const concrete = (pattern: string) => pattern.replace(/:\w+/g, "1");

describe("page access, declared once", () => {
  it("every page of routes.ts is declared, with a level, and nothing else is", () => {
    const pages = pagePaths(routes as RouteEntry[]);
    expect([...pages].sort()).toEqual(PAGES.map((p) => p.path).sort());
    for (const page of PAGES) expect(ACCESS_LEVELS).toContain(page.access);
  });

  it("a pathname finds its page whatever its case or trailing slash; others are the public not-found page", () => {
    expect(pageOf("/panda/")?.path).toBe("/panda");
    expect(pageAccess("/PANDA/Settings")).toBe("super");
    expect(pageAccess("/panda/edit/12")).toBe("admin");
    expect(pageAccess("/user/profile/")).toBe("user");
    expect(pageAccess("/sutie/3.html")).toBe("public");
    expect(pageAccess("/panda/nothing")).toBe("public");
    expect(pageAccess("/user/profile/extra")).toBe("public");
  });

  it("each page gets the guard of its level: members' pages auth, the back office admin, login pages send accounts on", () => {
    for (const page of PAGES) {
      const names = pageMiddleware(concrete(page.path));
      const expected = page.guestsOf
        ? [page.guestsOf === "admin" ? "adminGuest" : "guest"]
        : { public: [], user: ["auth"], admin: ["admin"], super: ["admin"] }[page.access];
      expect(names, page.path).toEqual(expected);
    }
    expect(collectMiddleware([{ handle: { middleware: ["auth"] } }], "/panda/block")).toEqual(["admin", "auth"]);
  });

  it("an editor's admin menu has exactly the pages declared admin; the super pages are gated", () => {
    const keys = (items: ReturnType<typeof adminMenuFor>) =>
      items.flatMap((g) => ((g as { children?: { key: string }[] }).children ?? []).map((e) => e.key));
    const all = keys(adminMenuFor("super"));
    const editor = keys(adminMenuFor("editor"));
    for (const key of all) {
      expect(editor.includes(key), key).toBe(pageAccess(key) === "admin");
      expect(isSuperOnly(key), key).toBe(pageAccess(key) === "super");
    }
    // Every back-office page but the login and the edit form (reached from the list) is in the menu.
    const menuPages = PAGES.filter((p) => p.path.startsWith("/panda") && !p.guestsOf && !p.path.includes(":"));
    expect([...all].map((k) => k.replace(/\/$/, "")).sort()).toEqual(menuPages.map((p) => p.path).sort());
  });
});
