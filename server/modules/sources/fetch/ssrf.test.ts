import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../../../testing/log-capture.js";
import { html, redirectTo, startFixtureSite, type FixtureSite } from "../../../testing/fixture-site.js";
import { SourceError } from "../types.js";
import { isForbiddenAddress, type LookupFunction } from "./address-guard.js";
import { createSourceFetcher, type SourceFetcherOptions } from "./client.js";

const sites: FixtureSite[] = [];
const closers: (() => void)[] = [];
afterEach(async () => {
  closers.splice(0).forEach((close) => close());
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

async function site(host?: string) {
  const s = await startFixtureSite(host ? { host } : {});
  sites.push(s);
  return s;
}

function fetcher(options: Partial<SourceFetcherOptions> & Pick<SourceFetcherOptions, "allowedHosts">) {
  const log = captureLog("warn");
  const client = createSourceFetcher({ source: "djuu", userAgent: "DJSearchBot/1.0 (+http://test/about)", minIntervalMs: 0, logger: log.logger, ...options });
  closers.push(() => client.close());
  return { client, log };
}

async function refusal(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

describe("address guard", () => {
  it.each([
    "127.0.0.1", "127.8.9.10", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
    "0.0.0.0", "224.0.0.1", "255.255.255.255", "::", "::1", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "0:0:0:0:0:ffff:a9fe:a9fe", "64:ff9b::192.168.0.1", "not-an-address",
    // IPv4 inside IPv6 transition forms: 6to4 of 127.0.0.1 and of a public address, Teredo, local-use NAT64, IPv4-compatible.
    "2002:7f00:1::", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "64:ff9b:1::a00:1", "::127.0.0.1", "::10.0.0.1",
  ])("refuses %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(["1.1.1.1", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8"])("lets %s through", (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe("SSRF: the source fetcher", () => {
  it("reaches an explicitly allowed fixture address", async () => {
    const s = await site();
    s.route("/", html("<p>ok</p>"));
    const { client } = fetcher({ allowedHosts: [s.host], allowAddresses: [s.host] });
    const answer = await client.fetch({ url: `${s.url}/` });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("<p>ok</p>");
    expect(s.hits[0]!.headers["user-agent"]).toBe("DJSearchBot/1.0 (+http://test/about)");
  });

  it("refuses a redirect to 127.0.0.1 when only the fixture's own address is allowed, and never connects there", async () => {
    const target = await site("127.0.0.1");
    target.route("/", html("secret"));
    const start = await site("127.0.0.2");
    start.route("/", redirectTo(`http://127.0.0.1:${target.port}/`));
    const { client, log } = fetcher({ allowedHosts: ["127.0.0.2", "127.0.0.1"], allowAddresses: ["127.0.0.2"] });

    const error = await refusal(client.fetch({ url: `${start.url}/` }));
    expect(error.kind).toBe("forbidden_address");
    expect(start.hits).toHaveLength(1);
    expect(target.hits).toHaveLength(0);
    expect(log.lines.some((l) => l.msg === "source request refused (SSRF guard)" && l.address === "127.0.0.1")).toBe(true);
  });

  it.each(["http://10.0.0.1/", "http://192.168.1.20/x", "http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://167772161/", "http://0xa9.0xfe.0xa9.0xfe/"])(
    "refuses a redirect to %s (even when the host is configured) and logs it",
    async (location) => {
      const s = await site();
      s.route("/", redirectTo(location));
      const host = new URL(location).hostname.replace(/^\[|\]$/gu, "");
      const { client, log } = fetcher({ allowedHosts: [s.host, host, new URL(location).hostname], allowAddresses: [s.host] });
      const began = performance.now();
      const error = await refusal(client.fetch({ url: `${s.url}/` }));
      expect(error.kind).toBe("forbidden_address");
      expect(performance.now() - began).toBeLessThan(1000); // refused, not a connect that timed out
      expect(log.lines.filter((l) => l.msg === "source request refused (SSRF guard)")).toHaveLength(1);
    },
  );

  it("refuses a redirect to a host that is not configured for the source", async () => {
    const s = await site();
    s.route("/", redirectTo("http://evil.example/steal"));
    const { client, log } = fetcher({ allowedHosts: [s.host], allowAddresses: [s.host] });
    const error = await refusal(client.fetch({ url: `${s.url}/` }));
    expect(error.kind).toBe("forbidden_address");
    expect(log.lines.at(-1)).toMatchObject({ host: "evil.example", reason: "host not configured for this source" });
  });

  it("refuses an unconfigured host before any connection", async () => {
    const s = await site();
    s.route("/", html("ok"));
    const { client } = fetcher({ allowedHosts: ["www.djuu.com"], allowAddresses: [s.host] });
    const error = await refusal(client.fetch({ url: `${s.url}/` }));
    expect(error.kind).toBe("forbidden_address");
    expect(s.hits).toHaveLength(0);
  });

  it("refuses a configured host whose DNS answer is loopback (localhost, the system resolver)", async () => {
    const s = await site();
    s.route("/", html("ok"));
    const { client, log } = fetcher({ allowedHosts: ["localhost"] });
    const error = await refusal(client.fetch({ url: `http://localhost:${s.port}/` }));
    expect(error.kind).toBe("forbidden_address");
    expect(s.hits).toHaveLength(0);
    expect(log.lines.at(-1)).toMatchObject({ host: "localhost", reason: "resolves to a non-public address" });
  });

  it("refuses a configured host when any one of its DNS answers is private (checked at each connection)", async () => {
    const s = await site();
    s.route("/", (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", connection: "close" }); // the next request must connect again
      res.end("ok");
    });
    const answers: string[][] = [];
    // A rebinding resolver: first the (allowed) fixture address only, then that and a private one.
    const lookup: LookupFunction = (_host, _options, callback) => {
      const addresses = answers.length === 0 ? [s.host] : [s.host, "10.1.2.3"];
      answers.push(addresses);
      callback(null, addresses.map((address) => ({ address, family: 4 })));
    };
    const { client } = fetcher({ allowedHosts: ["www.djuu.com"], allowAddresses: [s.host], lookup });
    const first = await client.fetch({ url: `http://www.djuu.com:${s.port}/` });
    expect(first.text).toBe("ok");
    const second = await refusal(client.fetch({ url: `http://www.djuu.com:${s.port}/` }));
    expect(second.kind).toBe("forbidden_address");
    expect(answers).toHaveLength(2);
    expect(s.hits).toHaveLength(1);
  });

  it("refuses other schemes", async () => {
    const { client } = fetcher({ allowedHosts: ["www.djuu.com"] });
    expect((await refusal(client.fetch({ url: "file:///etc/passwd" }))).kind).toBe("forbidden_address");
  });
});
