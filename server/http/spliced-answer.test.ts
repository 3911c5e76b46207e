import Fastify from "fastify";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { SplicedAnswer, sendSpliced } from "./spliced-answer.js";

describe("spliced answers", () => {
  const start = JSON.stringify({ code: 1, data: { title: "夜曲 串烧", list: Array.from({ length: 300 }, (_, i) => `第${i}首`) } }).slice(0, -2);
  const answer = new SplicedAnswer(start);

  it("appends each request's end to one gzip stream that any gunzip reads whole", () => {
    for (const end of [',"views":1}}', ',"views":123456789,"note":"浏览"}}', "", "x".repeat(70_000) + '"}}']) {
      const gz = answer.gzip(end);
      expect(gunzipSync(gz).toString()).toBe(start + end);
      expect(answer.plain(end).toString()).toBe(start + end);
    }
    // The start is compressed: the answer is far smaller than the text.
    expect(answer.gzip(',"v":1}}').length).toBeLessThan(Buffer.byteLength(start) / 3);
  });

  const app = Fastify();
  app.get("/a", (request, reply) => sendSpliced(request, reply, answer, ',"views":7}}'));
  afterAll(() => app.close());

  it("sends gzip to a client that takes it, plain otherwise", async () => {
    const gz = await app.inject({ url: "/a", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toContain("accept-encoding");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString()).data.views).toBe(7);
    for (const refuses of [undefined, "br", "gzip;q=0, br"]) {
      const plain = await app.inject({ url: "/a", headers: refuses ? { "accept-encoding": refuses } : {} });
      expect(plain.headers["content-encoding"], refuses).toBeUndefined();
      expect(plain.json().data.views).toBe(7);
    }
  });
});
