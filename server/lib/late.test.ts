import { describe, expect, it } from "vitest";
import { late } from "./late.js";

describe("late", () => {
  it("is read after it is set, and says which dependency was used too early or built twice", () => {
    const plugins = late<{ entries: number }>("plugins");
    expect(() => plugins.get()).toThrow("wiring: plugins is used before it is built");
    const built = plugins.set({ entries: 2 });
    expect(plugins.get()).toBe(built);
    expect(() => plugins.set({ entries: 3 })).toThrow("wiring: plugins is built twice");
    expect(plugins.get().entries).toBe(2);
  });
});
