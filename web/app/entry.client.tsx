import { installChunkErrorReload } from "./lib/chunk-reload";
import { registerServiceWorker } from "./lib/service-worker";

installChunkErrorReload(window);
registerServiceWorker(window);

/**
 * React and the router (~110 KB gzip) are loaded and hydrate after the first frame. Imported
 * statically, they were module-preloaded in <head> and evaluated before the browser painted
 * the server-rendered page: the first paint came 300-600 ms after the HTML even on localhost,
 * and on a slow mobile link (Lighthouse) all that JS stood before the first contentful paint.
 */
requestAnimationFrame(() => setTimeout(() => void import("./hydrate").then((m) => m.hydrate()), 0));
