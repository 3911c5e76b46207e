import { describe, expect, it, vi } from "vitest";
import { registerServiceWorker } from "./service-worker";

/** A window with a service worker container, its document at `readyState`. */
function fakeWindow(readyState: DocumentReadyState, withWorkers = true) {
  const listeners = new Map<string, () => void>();
  const register = vi.fn(() => Promise.resolve({}));
  const win = {
    navigator: withWorkers ? { serviceWorker: { register } } : {},
    document: { readyState },
    addEventListener: (type: string, fn: () => void) => void listeners.set(type, fn),
  };
  return { win: win as unknown as Window & typeof globalThis, register, fire: (type: string) => listeners.get(type)?.() };
}

describe("service worker registration", () => {
  it("waits for the page's load, then registers /sw.js with scope /", () => {
    const { win, register, fire } = fakeWindow("interactive");
    registerServiceWorker(win, true);
    expect(register).not.toHaveBeenCalled();
    fire("load");
    expect(register).toHaveBeenCalledWith("/sw.js", { scope: "/" });
  });

  it("registers at once when the page has already loaded", () => {
    const { win, register } = fakeWindow("complete");
    registerServiceWorker(win, true);
    expect(register).toHaveBeenCalledTimes(1);
  });

  it("registers nothing under the development server, or in a browser without service workers", () => {
    const dev = fakeWindow("complete");
    registerServiceWorker(dev.win, false);
    expect(dev.register).not.toHaveBeenCalled();
    const old = fakeWindow("complete", false);
    expect(() => registerServiceWorker(old.win, true)).not.toThrow();
  });
});
