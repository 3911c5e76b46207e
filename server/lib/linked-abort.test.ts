import { describe, expect, it } from "vitest";
import { linkedAbort } from "./linked-abort.js";

describe("linkedAbort", () => {
  it("aborts with the parent's reason, and its own abort leaves the parent alone", () => {
    const parent = new AbortController();
    const first = linkedAbort(parent.signal);
    const second = linkedAbort(parent.signal);
    second.controller.abort(new Error("own"));
    expect(parent.signal.aborted).toBe(false);
    expect(first.controller.signal.aborted).toBe(false);
    const reason = new Error("the visitor left");
    parent.abort(reason);
    expect(first.controller.signal.reason).toBe(reason);
    expect((second.controller.signal.reason as Error).message).toBe("own");
  });

  it("is born aborted under an aborted parent, and without a parent is a plain controller", () => {
    const parent = new AbortController();
    parent.abort("gone");
    expect(linkedAbort(parent.signal).controller.signal.reason).toBe("gone");
    const alone = linkedAbort();
    expect(alone.controller.signal.aborted).toBe(false);
    alone.dispose();
  });

  it("once disposed, no longer follows the parent (the work is over; nothing keeps it)", () => {
    const parent = new AbortController();
    const link = linkedAbort(parent.signal);
    link.dispose();
    parent.abort();
    expect(link.controller.signal.aborted).toBe(false);
  });
});
