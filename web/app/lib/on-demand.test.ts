import { describe, expect, it, vi } from "vitest";
import { onDemand } from "./on-demand";

describe("onDemand", () => {
  it("fetches once, however often it is asked, and hands the module over once it has arrived", async () => {
    const importer = vi.fn(async () => ({ answer: 42 }));
    const part = onDemand(importer);
    expect(part.loaded()).toBeNull();
    part.preload();
    const [a, b] = await Promise.all([part.load(), part.load()]);
    expect(a).toBe(b);
    expect(part.loaded()).toBe(a);
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it("tries again at the next call after a failed fetch (not a chunk error: no reload)", async () => {
    const importer = vi.fn().mockRejectedValueOnce(new Error("boom")).mockResolvedValueOnce({ ok: true });
    const part = onDemand(importer as () => Promise<{ ok: boolean }>);
    part.preload(); // a failed preload is quiet
    await expect(part.load()).rejects.toThrow("boom");
    expect(part.loaded()).toBeNull();
    await expect(part.load()).resolves.toEqual({ ok: true });
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
