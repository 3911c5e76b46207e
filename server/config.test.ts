import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("loadConfig", () => {
  it("runs on embedded defaults with an empty environment", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve("./data"));
    expect(config.mediaDir).toBe(path.join(config.dataDir, "media"));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisPrefix).toBe("dj:");
    expect(config.smtpUrl).toBeUndefined();
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.seedDemo).toBe(true);
    expect(config.dev).toBe(true);
  });

  it("pre-renders 200 suites and every category's first page by default, 1 s of it before listening; 0 turns each off; bad values refuse to start", () => {
    expect(loadConfig({}).prerender).toEqual({ suites: 200, categoryPages: 1, beforeListenMs: 1000 });
    expect(loadConfig({ PRERENDER_SUITES: "0", PRERENDER_CATEGORY_PAGES: "0", PRERENDER_BEFORE_LISTEN_MS: "0" }).prerender).toEqual({
      suites: 0,
      categoryPages: 0,
      beforeListenMs: 0,
    });
    for (const bad of [
      { PRERENDER_SUITES: "-1" },
      { PRERENDER_SUITES: "many" },
      { PRERENDER_CATEGORY_PAGES: "1.5" },
      { PRERENDER_SUITES: "100000" },
      { PRERENDER_BEFORE_LISTEN_MS: "-5" },
      { PRERENDER_BEFORE_LISTEN_MS: "soon" },
    ]) {
      expect(() => loadConfig(bad), JSON.stringify(bad)).toThrow(ConfigError);
    }
  });

  it("reads every documented variable", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      PORT: "8080",
      DATA_DIR: "/srv/dj",
      DATABASE_URL: "postgres://u@db:5432/dj",
      REDIS_URL: "redis://cache:6379",
      REDIS_PREFIX: "djsite-a:",
      SMTP_URL: "smtp://mail:25",
      PUBLIC_URL: "https://dj.example.cn/",
      SEED_DEMO: "0",
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: "/srv/dj",
      uploadsDir: "/srv/dj/uploads",
      databaseUrl: "postgres://u@db:5432/dj",
      redisUrl: "redis://cache:6379",
      redisPrefix: "djsite-a:",
      smtpUrl: "smtp://mail:25",
      publicUrl: "https://dj.example.cn",
      seedDemo: false,
      dev: false,
    });
  });

  it("account mails come from no-reply at the site's host (named by the site's title when sent) unless MAIL_FROM says otherwise", () => {
    expect(loadConfig({}).mailFrom).toEqual({ address: "no-reply@localhost" });
    expect(loadConfig({ PUBLIC_URL: "https://dj.example.cn" }).mailFrom).toEqual({ address: "no-reply@dj.example.cn" });
    expect(loadConfig({ MAIL_FROM: "DJ <codes@mail.example.cn>" }).mailFrom).toBe("DJ <codes@mail.example.cn>");
  });

  it("trusts X-Forwarded-* only from the proxies TRUST_PROXY names, checked at start", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "127.0.0.1" }).trustProxy).toEqual(["127.0.0.1"]);
    expect(loadConfig({ TRUST_PROXY: " 10.0.0.0/8, ::1 ,loopback" }).trustProxy).toEqual(["10.0.0.0/8", "::1", "loopback"]);
    for (const bad of ["1", "nginx", "10.0.0.0/33", "::1/129", "127.0.0.1/8/8", ",", "false"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it("bounds shutdown: 10 s in all, media streams cut after 5 s, the grace shorter than the whole", () => {
    expect(loadConfig({})).toMatchObject({ shutdownTimeoutMs: 10_000, shutdownStreamGraceMs: 5_000 });
    expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: "30000", SHUTDOWN_STREAM_GRACE_MS: "0" })).toMatchObject({ shutdownTimeoutMs: 30_000, shutdownStreamGraceMs: 0 });
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: "4000" })).toThrow(/SHUTDOWN_STREAM_GRACE_MS/);
  });

  it("treats empty variables as unset", () => {
    const config = loadConfig({ DATABASE_URL: "", PORT: "" });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.port).toBe(3000);
  });

  it("bounds how long a request may take to arrive: 30 s, its headers 20 s, unless set", () => {
    expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 20_000 });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: "60000", HEADERS_TIMEOUT_MS: "10000" })).toMatchObject({
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 10_000,
    });
    // 0 is not "off": a request that never arrives must end.
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: "0" })).toThrow(/REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: "5000", HEADERS_TIMEOUT_MS: "6000" })).toThrow(/HEADERS_TIMEOUT_MS/);
  });

  it("switches on every built-in source unless EXTERNAL_SOURCES says none or lists known ones", () => {
    expect(loadConfig({}).externalSources).toEqual(["djuu", "172minx", "vvvdj"]);
    expect(loadConfig({ EXTERNAL_SOURCES: "" }).externalSources).toEqual(["djuu", "172minx", "vvvdj"]);
    expect(loadConfig({ EXTERNAL_SOURCES: "none" }).externalSources).toEqual([]);
    expect(loadConfig({ EXTERNAL_SOURCES: " none " }).externalSources).toEqual([]);
    expect(() => loadConfig({ EXTERNAL_SOURCES: "none,djuu" })).toThrow(/EXTERNAL_SOURCES: none stands alone/);
    expect(() => loadConfig({ EXTERNAL_SOURCES: "off" })).toThrow(/EXTERNAL_SOURCES/);
    expect(loadConfig({ EXTERNAL_SOURCES: " djuu, 172minx,,djuu " }).externalSources).toEqual(["djuu", "172minx"]);
    expect(loadConfig({ EXTERNAL_SOURCES: "djuu,172minx,vvvdj" }).externalSources).toEqual(["djuu", "172minx", "vvvdj"]);
    expect(() => loadConfig({ EXTERNAL_SOURCES: "djuu,example" })).toThrow(/EXTERNAL_SOURCES/);
  });

  it("runs collect jobs every minute with a two-minute lease unless told otherwise; 0 turns the runner off", () => {
    expect(loadConfig({})).toMatchObject({ collectIntervalMs: 60_000, collectLeaseMs: 120_000 });
    expect(loadConfig({ COLLECT_INTERVAL_MS: "0", COLLECT_LEASE_MS: "30000" })).toMatchObject({ collectIntervalMs: 0, collectLeaseMs: 30_000 });
    expect(loadConfig({})).toMatchObject({ uploadSweepIntervalMs: 6 * 3600_000 });
    expect(loadConfig({ UPLOAD_SWEEP_INTERVAL_MS: "0" })).toMatchObject({ uploadSweepIntervalMs: 0 });
    expect(() => loadConfig({ COLLECT_INTERVAL_MS: "10" })).toThrow(/COLLECT_INTERVAL_MS/);
    expect(() => loadConfig({ COLLECT_LEASE_MS: "0" })).toThrow(/COLLECT_LEASE_MS/);
  });

  it("refuses malformed values with a message naming the variable", () => {
    expect(() => loadConfig({ PORT: "http" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ REDIS_URL: "localhost:6379" })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ REDIS_PREFIX: "dj *" })).toThrow(/REDIS_PREFIX/);
  });
});
