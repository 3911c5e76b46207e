import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hmacSha256 } from "./hmac-sha256.js";

const reference = (key: Buffer, message: string) => createHmac("sha256", key).update(message, "utf8").digest("hex");
const ascii = (length: number) => Array.from({ length }, (_, i) => String.fromCharCode(32 + ((i * 7 + length) % 95))).join("");

describe("hmacSha256", () => {
  it("gives createHmac's bytes for every message length across the block boundaries, under keys shorter and longer than a block", () => {
    for (const keyLength of [0, 1, 16, 32, 63, 64, 65, 200]) {
      const key = randomBytes(keyLength);
      const sign = hmacSha256(key);
      for (let length = 0; length <= 300; length++) {
        const message = ascii(length);
        expect(sign(message).toString("hex"), `key ${keyLength} B, message ${length} B`).toBe(reference(key, message));
      }
    }
  });

  it("signs non-ASCII messages as their UTF-8 bytes, and repeated calls do not leak state into each other", () => {
    const key = randomBytes(32);
    const sign = hmacSha256(key);
    const messages = ["DJ搜索引擎网", "串烧😀", "é", ascii(55), "", ascii(56), "x".repeat(1000), "中".repeat(100)];
    for (let round = 0; round < 3; round++) {
      for (const message of messages) expect(sign(message).toString("hex"), message.slice(0, 20)).toBe(reference(key, message));
    }
    // The official test vector of RFC 4231, case 2 (key "Jefe").
    expect(hmacSha256(Buffer.from("Jefe"))("what do ya want for nothing?").toString("hex")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });
});
