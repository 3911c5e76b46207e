import { describe, expect, it } from "vitest";
import { hashPassword, MAX_CONCURRENT_HASHES, verifyPassword } from "./passwords.js";

describe("passwords", () => {
  it("hashes with argon2id and verifies, also many at once (queued beyond the limit)", async () => {
    const stored = await hashPassword("夜店慢摇");
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const checks = await Promise.all(Array.from({ length: MAX_CONCURRENT_HASHES * 3 + 1 }, (_, i) => verifyPassword(stored, i % 2 ? "夜店慢摇" : "wrong")));
    expect(checks).toEqual(checks.map((_, i) => i % 2 === 1));
  });

  it("treats a stored value that is not argon2 as a wrong password", async () => {
    expect(await verifyPassword("x", "x")).toBe(false);
    expect(await verifyPassword("", "")).toBe(false);
  });
});
