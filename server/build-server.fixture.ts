// Built by build-server.test.ts: modules that find files next to their source, bundled elsewhere.
export { MIGRATIONS_FOLDER as migrations } from "./db/migrate.js";
export { DEMO_ASSETS_DIR as demoAssets } from "./demo-media/prepare-demo-media.js";
/** Its own source's address, not the bundle's. */
export const bundled = import.meta.url;
