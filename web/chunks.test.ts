import { describe, expect, it } from "vitest";
import { clientChunkGroups } from "./chunks";

const app = (p: string) => `/site/web/app/${p}`;
const HELPER = "\0vite/preload-helper.js";
const REACT = "/site/node_modules/react/index.js";
const GRAPH: Record<string, string[]> = {
  [app("entry.client.tsx")]: [app("lib/chunk-reload.ts"), HELPER],
  [app("lib/chunk-reload.ts")]: [],
  [HELPER]: [],
  [app("root.tsx")]: [REACT, app("lib/api.ts"), app("lib/chunk-reload.ts")],
  [app("lib/api.ts")]: [REACT],
  [app("layouts/default.tsx")]: [app("components/player/PlayerHost.tsx"), app("guards/GuardGate.tsx"), app("lib/api.ts")],
  [app("components/player/PlayerHost.tsx")]: [HELPER, REACT],
  [app("guards/GuardGate.tsx")]: [],
  [app("layouts/admin.tsx")]: [app("guards/GuardGate.tsx"), app("components/admin/Table.tsx")],
  [app("components/admin/Table.tsx")]: [],
  [app("routes/home.tsx")]: [app("components/home/HomeView.tsx")],
  [app("components/home/HomeView.tsx")]: [],
  [REACT]: [],
};
const graph = { getModuleInfo: (id: string) => (GRAPH[id] ? { importedIds: GRAPH[id] } : null) };

/** Each module's chunk as rolldown would name it: every test of a group, then its names; the highest priority wins. */
function chunkOf(): Record<string, string | null> {
  const groups = clientChunkGroups();
  const named = new Map<string, { name: string; priority: number }>();
  for (const group of groups) {
    const test = group.test as RegExp | ((id: string) => boolean);
    const candidates = Object.keys(GRAPH).filter((id) => (test instanceof RegExp ? test.test(id) : test(id)));
    for (const id of candidates) {
      const name = typeof group.name === "string" ? group.name : group.name(id, graph);
      const seen = named.get(id);
      if (name && (!seen || seen.priority < group.priority)) named.set(id, { name, priority: group.priority });
    }
  }
  return Object.fromEntries(Object.keys(GRAPH).map((id) => [id.replace("/site/", ""), named.get(id)?.name ?? null]));
}

describe("the browser build's chunk groups", () => {
  it("groups what every page, every public page and the entry load; leaves the routes' own code alone", () => {
    expect(chunkOf()).toEqual({
      "web/app/entry.client.tsx": null, // the entry stays its own chunk: it starts hydration when it runs
      "web/app/lib/chunk-reload.ts": "entry-deps",
      "\0vite/preload-helper.js": "entry-deps",
      "web/app/root.tsx": "app-root",
      "web/app/lib/api.ts": "app-root",
      "web/app/guards/GuardGate.tsx": "app-root", // public layout and back office both: with the root's
      "web/app/layouts/default.tsx": "public-shell",
      "web/app/components/player/PlayerHost.tsx": "public-shell",
      "web/app/layouts/admin.tsx": null,
      "web/app/components/admin/Table.tsx": null,
      "web/app/routes/home.tsx": null,
      "web/app/components/home/HomeView.tsx": null,
      "node_modules/react/index.js": "framework",
    });
  });

  it("keeps react-dom's client out of the framework chunk (hydrate.tsx loads it after the first frame)", () => {
    const framework = clientChunkGroups().find((g) => g.name === "framework")!.test as RegExp;
    expect(framework.test("/site/node_modules/react-dom/index.js")).toBe(true);
    expect(framework.test("/site/node_modules/react-router/dist/production/index.js")).toBe(true);
    expect(framework.test("/site/node_modules/react-dom/client.js")).toBe(false);
    expect(framework.test("/site/node_modules/react-dom/cjs/react-dom-client.production.js")).toBe(false);
    expect(framework.test("/site/node_modules/react-is/index.js")).toBe(false);
  });
});
