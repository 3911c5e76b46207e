/**
 * Registers the site's service worker (/sw.js, scope /; ADR 0066) once the page has loaded, so
 * it never competes with the first paint, and from a build only: Vite's development server
 * changes files under the same names, which a worker's cache would keep serving. (Told apart by
 * hot reloading, which only the development server has: a build's mode follows NODE_ENV, which a
 * build started by the tests sets to "test".)
 */
export function registerServiceWorker(win: Window & typeof globalThis, production = !import.meta.hot) {
  if (!production || !("serviceWorker" in win.navigator)) return;
  const register = () => {
    win.navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // Not installable in this browser (private mode, a policy): the site works as before.
    });
  };
  if (win.document.readyState === "complete") register();
  else win.addEventListener("load", register, { once: true });
}
