import { describe, expect, it } from "vitest";
import { inProcessBus } from "./bus.js";
import type { CatalogueEvent } from "./catalogue-events.js";

describe("inProcessBus", () => {
  const event: CatalogueEvent = { type: "items", action: "updated", ids: [1, 2], categoryIds: [3], siteCodes: ["djuu"] };

  it("delivers each event to every listener in order, as plain JSON copies", () => {
    const bus = inProcessBus();
    const seen: string[] = [];
    bus.subscribe((e) => {
      seen.push(`a:${e.type}`);
      if (e.type === "items") e.ids.push(99); // cannot change what the next listener sees
    });
    bus.subscribe((e) => seen.push(`b:${JSON.stringify(e)}`));
    bus.publish(event);
    expect(seen).toEqual(["a:items", `b:${JSON.stringify(event)}`]);
    expect(event.ids).toEqual([1, 2]);
  });

  it("reports a listener that throws and still runs the others; unsubscribe stops delivery", () => {
    const errors: string[] = [];
    const bus = inProcessBus((err, e) => errors.push(`${(err as Error).message}:${e.type}`));
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error("boom");
    });
    const off = bus.subscribe((e) => seen.push(e.type));
    bus.publish({ type: "charts" });
    off();
    bus.publish({ type: "charts" });
    expect(errors).toEqual(["boom:charts", "boom:charts"]);
    expect(seen).toEqual(["charts"]);
  });
});
