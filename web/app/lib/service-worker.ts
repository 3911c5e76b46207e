/**
 * Registers the site's service worker (/sw.js, scope /; ADR 0066) once the page has loaded, so
 * it never competes with the first paint, and in production builds only: Vite's development
 * server changes files under the same names, which a worker's cache would keep serving.
 */
export function registerServiceWorker(win: Window & typeof globalThis, production = import.meta.env.PROD) {
  if (!production || !("serviceWorker" in win.navigator)) return;
  const register = () => {
    win.navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // Not installable in this browser (private mode, a policy): the site works as before.
    });
  };
  if (win.document.readyState === "complete") register();
  else win.addEventListener("load", register, { once: true });
}
