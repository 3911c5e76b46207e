/**
 * How the browser build groups modules into chunks (ADR 0077). Left to itself the bundler made
 * one chunk per set of routes sharing a module: the home page loaded 38 scripts, most under
 * 1 KB gzip, and gzipped one by one they weighed ~8 KB more than the same code in one file
 * (each file compresses without what the others taught). Three groups, each code that every
 * page of its kind loads anyway, so no page loads more than before:
 * - `framework`: React and React Router (not react-dom's client: hydrate.tsx loads it);
 * - `app-root`: our modules that the root route imports (every page, back office included), and
 *   those the public layout shares with the back office;
 * - `public-shell`: our modules that the public layout imports (navbar, player, dialogs' hosts),
 *   minus any the back office imports too, which would make it load the whole group.
 * Groups are found from the module graph at build time, so a new import lands where it belongs.
 */
type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

const OWN = /[\\/](web[\\/]app|contracts)[\\/][^?]*\.tsx?$/;
const FRAMEWORK = /node_modules[\\/](react|react-router|react-dom(?![\\/](client|cjs[\\/]react-dom-client)))[\\/]/;
const APP = /[\\/]web[\\/]app[\\/]/;
/** The bundler's own modules (vite's preload-helper, ids starting with a NUL). */
const BUNDLER = /^\0/;
const ROOT = [/web[\\/]app[\\/]root\.tsx$/];
const ENTRY = [/entry\.client\.tsx$/];
const PUBLIC = [/layouts[\\/]default\.tsx$/];
const ADMIN = [/layouts[\\/]admin\.tsx$/, /routes[\\/]panda[\\/]/];

/** Modules reachable by static imports from those that match `starts`, through those that `keep`. */
function closure(ids: readonly string[], starts: RegExp[], graph: ModuleGraph, keep = (id: string) => OWN.test(id)): Set<string> {
  const seen = new Set<string>();
  const todo = ids.filter((id) => APP.test(id) && starts.some((s) => s.test(id)));
  while (todo.length) {
    const id = todo.pop()!;
    if (seen.has(id) || !keep(id)) continue;
    seen.add(id);
    todo.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** The groups for `output.codeSplitting.groups` (one build: the sets are found at the first name asked). */
export function clientChunkGroups() {
  // Every group's test sees every module before that group's first name (rolldown's order).
  const own = new Set<string>();
  const collect = (id: string) => {
    if (!OWN.test(id) && !BUNDLER.test(id)) return false;
    own.add(id);
    return true;
  };
  let sets: Record<"entryDeps" | "root" | "shell", Set<string>> | null = null;
  const find = (graph: ModuleGraph) => {
    if (sets) return sets;
    const ids = [...own];
    // The entry's imports get a chunk of their own: in the root's group they would bring the
    // root's chunk (and in the shell's, the shell) to every page, before the entry runs.
    // (With the bundler's helpers, vite's preload-helper: a group's chunk takes its members'
    // imports along, and every module with a dynamic import() imports it.)
    const entry = closure(ids, ENTRY, graph, (id) => OWN.test(id) || BUNDLER.test(id));
    const root = new Set([...closure(ids, ROOT, graph)].filter((id) => !entry.has(id)));
    const admin = closure(ids, ADMIN, graph);
    const pub = [...closure(ids, PUBLIC, graph)].filter((id) => !root.has(id) && !entry.has(id));
    // Shared with the back office: every page loads these, as it loads the root's.
    for (const id of pub) if (admin.has(id)) root.add(id);
    const entryDeps = new Set([...entry].filter((id) => !ENTRY.some((e) => e.test(id))));
    return (sets = { entryDeps, root, shell: new Set(pub.filter((id) => !admin.has(id))) });
  };
  const group = (name: string, set: "entryDeps" | "root" | "shell", priority: number) => ({
    name: (id: string, graph: ModuleGraph) => (find(graph)[set].has(id) ? name : null),
    debugName: name,
    test: collect,
    priority,
  });
  return [
    group("entry-deps", "entryDeps", 3),
    group("app-root", "root", 2),
    group("public-shell", "shell", 1),
    { name: "framework", test: FRAMEWORK, priority: 4 },
  ];
}
