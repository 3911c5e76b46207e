import { describe, expect, it, vi } from "vitest";
import {
  CHUNK_RELOAD_GUARD_MS,
  CHUNK_RELOAD_KEY,
  isChunkLoadError,
  reloadOnceForChunkError,
} from "./chunk-reload";

function session() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

describe("chunk reload guard", () => {
  it("reloads once, then not again within 60 seconds, then again after", () => {
    const storage = session();
    const reload = vi.fn();
    const t0 = 1_700_000_000_000;
    expect(reloadOnceForChunkError(storage, reload, t0)).toBe(true);
    expect(storage.data.get(CHUNK_RELOAD_KEY)).toBe(String(t0));
    expect(reloadOnceForChunkError(storage, reload, t0 + 1_000)).toBe(false);
    expect(reloadOnceForChunkError(storage, reload, t0 + CHUNK_RELOAD_GUARD_MS - 1)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadOnceForChunkError(storage, reload, t0 + CHUNK_RELOAD_GUARD_MS)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it("still reloads when storage is unavailable or holds garbage", () => {
    const reload = vi.fn();
    const broken = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("SecurityError");
      },
    };
    expect(reloadOnceForChunkError(broken, reload, 5)).toBe(true);
    const garbage = session();
    garbage.data.set(CHUNK_RELOAD_KEY, "not a number");
    expect(reloadOnceForChunkError(garbage, reload, 5)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it("recognises the browsers' chunk-load errors only", () => {
    expect(
      isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /a.js")),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Unable to preload CSS for /assets/x.css"))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});
