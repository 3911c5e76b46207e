import { describe, expect, it } from "vitest";
import { oneTaskPerTurn } from "./local-provider.js";

describe("the catalogue's queries on PGlite (one per loop turn)", () => {
  it("runs its tasks one after another, letting what arrived meanwhile run between them", async () => {
    const turn = oneTaskPerTurn();
    const seen: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running += 1;
      expect(running).toBe(1);
      seen.push(`start ${name}`);
      // What a site's answer would be: handled in the next turn, not after every queued query.
      setImmediate(() => seen.push(`io after ${name}`));
      await Promise.resolve();
      seen.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all([turn(task("a")), turn(task("b")), turn(task("c"))]);
    expect(results).toEqual(["a", "b", "c"]);
    expect(seen).toEqual(["start a", "end a", "io after a", "start b", "end b", "io after b", "start c", "end c"]);
  });

  it("goes on after a task that failed", async () => {
    const turn = oneTaskPerTurn();
    const failed = turn(() => Promise.reject(new Error("query failed")));
    const next = turn(() => Promise.resolve("next"));
    await expect(failed).rejects.toThrow("query failed");
    await expect(next).resolves.toBe("next");
  });
});
