import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { sendFetchResponse, toFetchRequest } from "./fetch-bridge";
import { DEFAULT_EXCLUDED_PREFIXES, isExcluded, withoutLeadingSlashes } from "./shared";

describe("paths owned by other plugins", () => {
  it("are never rendered as pages", () => {
    const ex = (url: string) => isExcluded(url, DEFAULT_EXCLUDED_PREFIXES);
    for (const url of [
      "/api/x",
      "/api/forntend/index?x=1",
      "/media/a.mp3",
      "/uploads/a.png",
      "/pandaadmin/index/logout",
      "/healthz",
      "/healthz?full=1",
    ]) {
      expect(ex(url), url).toBe(true);
    }
    for (const url of [
      "/",
      "/apidocs",
      "/site/1.html",
      "/panda/",
      "/pandaX",
      "/healthzz",
      "/user/profile?api/",
    ]) {
      expect(ex(url), url).toBe(false);
    }
  });
});

describe("leading slashes", () => {
  it("collapse to one, so a redirect never names another host", () => {
    expect(withoutLeadingSlashes("//")).toBe("/");
    expect(withoutLeadingSlashes("///sort/club?x=1")).toBe("/sort/club?x=1");
    expect(withoutLeadingSlashes("//:99999/")).toBe("/:99999/");
    expect(withoutLeadingSlashes("/\\evil.example/")).toBe("/evil.example/");
    expect(withoutLeadingSlashes("/\\/\\evil.example")).toBe("/evil.example");
    for (const url of ["/", "/sort/club", "/a//b", "/?next=//x"]) expect(withoutLeadingSlashes(url)).toBe(url);
  });
});

describe("Fastify <-> Fetch bridge", () => {
  it("builds the URL by parts: an odd path never names another host or throws", async () => {
    const app = Fastify();
    const seen: string[] = [];
    app.get("/*", async (request, reply) => {
      seen.push(toFetchRequest(request, reply).url);
      return reply.send("ok");
    });
    for (const url of ["//evil.example/x?q=1", "//:99999/", "/\\evil.example/"]) {
      expect((await app.inject({ url, headers: { host: "dj.example" } })).statusCode, url).toBe(200);
    }
    expect((await app.inject({ url: "/x", headers: { host: "a b" } })).statusCode).toBe(200);
    expect(seen.map((u) => new URL(u).host)).toEqual(["dj.example", "dj.example", "dj.example", "localhost"]);
    expect(new URL(seen[0]).pathname).toBe("//evil.example/x");
    expect(new URL(seen[0]).search).toBe("?q=1");
    await app.close();
  });

  it("passes method, URL and headers, and sends status, every Set-Cookie and the body", async () => {
    const app = Fastify();
    let seen: Request | undefined;
    app.get("/*", async (request, reply) => {
      seen = toFetchRequest(request, reply);
      const headers = new Headers({ "content-type": "text/html; charset=utf-8", "x-a": "1" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/; HttpOnly");
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("<p>流式"));
          controller.enqueue(new TextEncoder().encode("输出</p>"));
          controller.close();
        },
      });
      return sendFetchResponse(reply, new Response(body, { status: 404, headers }));
    });
    const res = await app.inject({
      url: "/sort/club?page=2",
      headers: { host: "dj.example", cookie: "x=1", "accept-language": "zh-CN" },
    });
    expect(seen?.method).toBe("GET");
    expect(seen?.url).toBe("http://dj.example/sort/club?page=2");
    expect(seen?.headers.get("cookie")).toBe("x=1");
    expect(seen?.headers.get("accept-language")).toBe("zh-CN");
    expect(res.statusCode).toBe(404);
    expect(res.headers["x-a"]).toBe("1");
    expect(res.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/; HttpOnly"]);
    expect(res.body).toBe("<p>流式输出</p>");
    await app.close();
  });

  it("answers a response without a body (redirects)", async () => {
    const app = Fastify();
    app.get("/*", async (_request, reply) =>
      sendFetchResponse(
        reply,
        new Response(null, { status: 301, headers: { location: "/sort/club" } }),
      ),
    );
    const res = await app.inject({ url: "/sort/club.html" });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe("/sort/club");
    expect(res.body).toBe("");
    await app.close();
  });
});
