import { crc32, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { GzipTemplate } from "./gzip-template.js";

describe("gzip templates", () => {
  const parts = ["<p>浏览 ", "</p><script>x=[", "]</script>" + "<li>夜曲</li>".repeat(2000), ""];
  const template = new GzipTemplate(parts);
  const whole = (holes: string[]) => parts.map((p, i) => p + (holes[i] ?? "")).join("");

  it("fills every hole into one gzip stream that any gunzip reads whole, CRC and length checked", () => {
    for (const holes of [["1", "2", "3"], ["98765.4万", "987654321", ""], ["", "", ""], ["x".repeat(70_000), "夜", "y".repeat(140_000)]]) {
      const gz = template.gzip(holes);
      expect(gunzipSync(gz).toString()).toBe(whole(holes));
      expect(gz.readUInt32LE(gz.length - 8)).toBe(crc32(Buffer.from(whole(holes))));
      expect(template.plain(holes).toString()).toBe(whole(holes));
    }
    // The fixed parts are compressed.
    expect(template.gzip(["1", "2", "3"]).length).toBeLessThan(Buffer.byteLength(whole(["1", "2", "3"])) / 20);
    expect(() => template.gzip(["1"])).toThrow();
  });

  it("keeps parts that own exactly their bytes (zlib returns slices of a 64 KB chunk)", () => {
    const template = new GzipTemplate(["<p>播放 ", " 次</p>"]);
    expect(template.bytesHeld).toBeLessThan(1024);
    const parts = (template as unknown as { parts: { deflated: Buffer }[] }).parts;
    for (const part of parts) expect(part.deflated.buffer.byteLength).toBe(part.deflated.length);
  });

  it("works without holes and with empty parts", () => {
    for (const p of [["只有一段"], ["", ""], ["", "a", ""]]) {
      const t = new GzipTemplate(p);
      const holes = Array.from({ length: p.length - 1 }, (_, i) => `#${i}`);
      expect(gunzipSync(t.gzip(holes)).toString()).toBe(p.map((s, i) => s + (holes[i] ?? "")).join(""));
    }
  });
});
