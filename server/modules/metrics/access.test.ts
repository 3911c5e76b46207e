import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.js";
import { allowList } from "./access.js";
import { pagePattern } from "./http-metrics.js";

describe("METRICS_ALLOW and METRICS_TOKEN", () => {
  it("reads addresses, ranges and loopback; none is nobody", () => {
    expect(loadConfig({}).metrics).toEqual({ allow: ["loopback"], token: undefined });
    expect(loadConfig({ METRICS_ALLOW: "none" }).metrics.allow).toEqual([]);
    expect(loadConfig({ METRICS_ALLOW: " 10.0.0.0/8, ::1 ,192.168.1.7" }).metrics.allow).toEqual(["10.0.0.0/8", "::1", "192.168.1.7"]);
    const list = allowList(["loopback", "10.0.0.0/8", "fd00::/8"]);
    expect(list.check("127.0.0.1", "ipv4")).toBe(true);
    expect(list.check("127.9.9.9", "ipv4")).toBe(true);
    expect(list.check("::1", "ipv6")).toBe(true);
    expect(list.check("10.200.0.1", "ipv4")).toBe(true);
    expect(list.check("fd12::1", "ipv6")).toBe(true);
    expect(list.check("11.0.0.1", "ipv4")).toBe(false);
    expect(list.check("203.0.113.1", "ipv4")).toBe(false);
  });

  it("refuses a list it cannot read, a short token, an unknown log format", () => {
    for (const bad of ["localhost", "10.0.0.0/33", "10.0.0.0/x", "*", "1.2.3"]) {
      expect(() => loadConfig({ METRICS_ALLOW: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(loadConfig({ METRICS_TOKEN: "a-long-enough-token" }).metrics.token).toBe("a-long-enough-token");
    expect(() => loadConfig({ LOG_FORMAT: "xml" })).toThrow(/LOG_FORMAT/);
    expect(loadConfig({ LOG_FORMAT: "pretty" }).logFormat).toBe("pretty");
    expect(loadConfig({}).logFormat).toBeUndefined();
  });
});

describe("page patterns for the web shell's catch-all", () => {
  it("names React Router's route, never the address", () => {
    expect(pagePattern("/")).toBe("/");
    expect(pagePattern("/?from=x")).toBe("/");
    expect(pagePattern("/sutie/123.html")).toBe("/sutie/:file");
    expect(pagePattern("/site/9.html?x=1")).toBe("/site/:file");
    expect(pagePattern("/sort/club")).toBe("/sort/:diyname");
    expect(pagePattern("/panda/edit/77")).toBe("/panda/edit/:id");
    expect(pagePattern("/user/favorites")).toBe("/user/favorites");
    expect(pagePattern("/panda/sutieList")).toBe("/panda/sutieList");
    // Every page of contracts/access.ts, /panda/plugins included (the list typed here before had missed it).
    expect(pagePattern("/panda/plugins")).toBe("/panda/plugins");
    for (const other of ["/sutie/1/2", "/wp-login.php", "/login/x", "/panda/unknown", "/%E4%B8%AD"]) expect(pagePattern(other), other).toBe("/*");
  });
});
