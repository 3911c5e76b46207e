import Fastify from "fastify";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { answerFor, pickEncoding, SharedAnswer, sendShared } from "./shared-answer.js";

const listSchema = z.object({ code: z.number(), list: z.array(z.object({ id: z.number(), name: z.string() })) });
const texts = z.object({ code: z.number(), list: z.array(z.string()) });

describe("shared answers", () => {
  const big = SharedAnswer.json(listSchema, { code: 1, list: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `夜曲 ${i}` })) });
  const small = SharedAnswer.json(listSchema, { code: 1, list: [] });
  const app = Fastify();
  app.get("/big", (request, reply) => sendShared(request, reply, big));
  app.get("/small", (request, reply) => sendShared(request, reply, small));
  afterAll(() => app.close());

  it("picks br, then gzip, and honours q=0", () => {
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip;q=1.0, br;q=0")).toBe("gzip");
    expect(pickEncoding("*")).toBe("gzip");
    expect(pickEncoding("identity")).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });

  it("sends the same JSON compressed as asked, with an ETag and Vary", async () => {
    const plain = await app.inject({ url: "/big" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(plain.headers.vary).toContain("accept-encoding");
    const br = await app.inject({ url: "/big", headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await app.inject({ url: "/big", headers: { "accept-encoding": "gzip" } });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    // A small answer is not worth compressing.
    expect((await app.inject({ url: "/small", headers: { "accept-encoding": "br" } })).headers["content-encoding"]).toBeUndefined();
  });

  it("still sends the same plain JSON after its compressed forms replaced the kept bytes", async () => {
    const json = JSON.stringify({ code: 1, list: Array.from({ length: 100 }, (_, i) => `串烧 ${i}`) });
    for (const first of ["br", "gzip"] as const) {
      const answer = SharedAnswer.json(texts, JSON.parse(json));
      expect(answer.body.toString()).toBe(json);
      answer.encodedAs(first);
      expect(answer.body.toString()).toBe(json);
      expect(gunzipSync(answer.encodedAs("gzip")).toString()).toBe(json);
      expect(brotliDecompressSync(answer.encodedAs("br")).toString()).toBe(json);
      expect(answer.size).toBe(Buffer.byteLength(json));
    }
  });

  it("keeps compressed forms that own exactly their bytes, not a slice of zlib's 64 KB chunk", () => {
    const answer = SharedAnswer.text(JSON.stringify({ code: 1, msg: "成功", data: { title: "夜曲 DJ" } }), "text/plain");
    // Node's pool would put the short plain text in a slice of a shared 64 KB slab.
    expect(answer.body.buffer.byteLength).toBe(answer.body.length);
    for (const encoding of ["gzip", "br"] as const) {
      const bytes = answer.encodedAs(encoding);
      expect(bytes.buffer.byteLength).toBe(bytes.length);
    }
    expect(answer.bytesHeld).toBeLessThan(200);
  });

  it("answers 304 to a client that has it", async () => {
    const first = await app.inject({ url: "/big" });
    const again = await app.inject({ url: "/big", headers: { "if-none-match": String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("makes one answer per cached object", () => {
    const value = { a: 1 };
    const schema = z.object({ code: z.number(), data: z.object({ a: z.number() }) });
    let calls = 0;
    const make = (v: typeof value) => (calls++, { code: 1, data: v });
    expect(answerFor(value, schema, make)).toBe(answerFor(value, schema, make));
    expect(calls).toBe(1);
    expect(answerFor({ a: 1 }, schema, make)).not.toBe(answerFor(value, schema, make));
  });

  it("encodes a JSON answer through its schema, as the route serializer does, and refuses a value that does not match", () => {
    const schema = z.object({ code: z.number(), at: z.codec(z.iso.datetime(), z.date(), { decode: (s) => new Date(s), encode: (d) => d.toISOString() }) });
    const answer = SharedAnswer.json(schema, { code: 1, at: new Date(0), extra: "dropped" });
    expect(answer.body.toString()).toBe('{"code":1,"at":"1970-01-01T00:00:00.000Z"}');
    expect(answer.schema).toBe(schema);
    expect(answer.type).toBe("application/json; charset=utf-8");
    expect(() => SharedAnswer.json(schema, { code: "1", at: new Date(0) })).toThrow();
  });
});
