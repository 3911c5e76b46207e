/**
 * Compiles the server (server/main.ts and what it imports) into build/node/main.js, which
 * `npm run serve` runs with plain Node (ADR 0037): no TypeScript loader at run time, whose
 * transformed sources and inline source maps cost the running server ~40 MB of heap.
 *
 *   npx tsx scripts/build-server.ts      (part of `npm run build`)
 *
 * Packages stay imports of node_modules (not bundled). A module that finds files next to itself
 * (`new URL("./migrations", import.meta.url)`) keeps finding them: its `import.meta.url` is
 * rewritten to its own source file's address, relative to the bundle, so the build works
 * wherever the checkout lives. A linked source map is written beside the bundle for debugging
 * (`node --enable-source-maps build/node/main.js`); serving does not load it.
 */
import { build, type Plugin } from "esbuild";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
export const SERVER_OUT_DIR = path.join(root, "build", "node");

/** `import.meta.url` of each source file, as seen from the bundle in `outDir`. */
export function sourceUrlPlugin(outDir: string): Plugin {
  return {
    name: "source-import-meta-url",
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        const source = await readFile(args.path, "utf8");
        const loader = args.path.endsWith(".tsx") ? "tsx" : "ts";
        if (!source.includes("import.meta.url")) return { contents: source, loader };
        const fromBundle = path.relative(outDir, args.path).split(path.sep).join("/");
        const own = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
        return { contents: source.replaceAll("import.meta.url", own), loader };
      });
    },
  };
}

export async function buildServer(outDir = SERVER_OUT_DIR, entry = path.join(root, "server", "main.ts")): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await build({
    // Worker threads start from files of their own: the plugin sandbox's (server/modules/plugins/sandbox/host.ts)
    // and PGlite's (server/db/pglite-thread/client.ts).
    entryPoints: {
      [path.basename(entry, ".ts")]: entry,
      "plugin-worker": path.join(root, "server", "modules", "plugins", "sandbox", "worker.ts"),
      "pglite-worker": path.join(root, "server", "db", "pglite-thread", "worker.ts"),
    },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node24",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    // Function and class names stay as written: stack traces and logs read as the source.
    keepNames: true,
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [sourceUrlPlugin(outDir)],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const started = performance.now();
  await buildServer();
  console.log(`server built into ${path.relative(root, SERVER_OUT_DIR)}/ in ${Math.round(performance.now() - started)} ms`);
}
