import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { clientChunkGroups } from "./web/chunks.js";

const SIDE_EFFECT_FREE =
  /node_modules[\\/](@rc-component[\\/]|rc-[^\\/]+[\\/]|@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors)[\\/])/;

/**
 * The public pages' CSS modules (layouts, navbar, player, lists, charts, home, category and
 * detail views): ~25 KB, one stylesheet for every public page.
 */
const PUBLIC_STYLES =
  /web[\\/]app[\\/](layouts[\\/](default|user)|(guards|routes|components[\\/](nav|player|errors|layout|charts|catalogue|home|category|suite|account))[\\/][^\\/]+)\.module\.css$/;

export default defineConfig(({ command, mode, isSsrBuild }) => ({
  // Bundled antd code in the server build reads NODE_ENV for its class-name prefix: fix it
  // at build time so server and browser always agree, whatever the server process has.
  define: { "process.env.NODE_ENV": JSON.stringify(mode) },
  publicDir: "public",
  build: {
    rolldownOptions: {
      // antd's helper packages (@rc-component/*, its style engine) do not declare
      // `sideEffects: false`, so unused parts (Form, async-validator...) would reach every
      // page. They have no import-time effects: let the bundler drop what is not used.
      treeshake: {
        moduleSideEffects: (id: string) => (SIDE_EFFECT_FREE.test(id) ? false : undefined),
      },
      output: {
        // One stylesheet instead of one per component chunk (seven on the home page): on a slow
        // mobile link every render-blocking stylesheet delays the first paint by a round trip.
        // In the browser's build, fewer and larger script chunks too (web/chunks.ts, ADR 0077).
        codeSplitting: {
          groups: [{ name: "public-styles", test: PUBLIC_STYLES, priority: 10 }, ...(isSsrBuild ? [] : clientChunkGroups())],
        },
      },
    },
  },
  plugins: [reactRouter()],
  resolve: {
    alias: [
      { find: "@contracts", replacement: fileURLToPath(new URL("./contracts", import.meta.url)) },
      // Under Node's export conditions the package root is a CommonJS wrapper of every icon
      // (3 MB in the server build, ~0.5 s of every start-up): the ES build lets the bundler keep
      // only the icons that are used.
      { find: /^@ant-design\/icons$/, replacement: fileURLToPath(new URL("./node_modules/@ant-design/icons/es/index.js", import.meta.url)) },
    ],
  },
  ssr: {
    // antd ships CommonJS for Node and ESM for bundlers: bundling it (and its style engine)
    // into the server build keeps one @ant-design/cssinjs instance, so SSR style extraction
    // sees every component's styles. Its small CommonJS helpers (whose default export Node
    // would not unwrap) come along. In development Node loads antd's CommonJS build as is
    // (Vite's dev SSR cannot run CommonJS), which also shares one style engine.
    noExternal:
      command === "serve"
        ? []
        : [
            "antd",
            /^@ant-design\//,
            /^@rc-component\//,
            /^rc-/,
            /^@emotion\//,
            /^@babel\/runtime/,
            "stylis",
          ],
  },
}));
