import { describe, expect, it } from "vitest";
import { randomToken } from "./random-token.js";

describe("randomToken", () => {
  it("gives distinct base64url tokens of the asked size, across pool refills", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const token = randomToken(16);
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      seen.add(token);
    }
    expect(seen.size).toBe(2000);
    expect(Buffer.from(randomToken(5000), "base64url")).toHaveLength(5000);
  });
});
