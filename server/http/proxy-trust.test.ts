/**
 * Who is a proxy (request-id.ts `proxyTrust`): the remembered trust answers as proxy-addr's
 * compiled list does, and Fastify given it reads `request.ip` as Fastify given the list does, as
 * does the kept-page lane's `clientAddressOf`.
 */
import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { clientAddressOf, proxyTrust } from "./request-id.js";

const LIST = ["loopback", "10.0.0.0/8"];
const PEERS = ["127.0.0.1", "::1", "::ffff:127.0.0.1", "10.1.2.3", "192.0.2.7", "2001:db8::1", "not-an-ip"];
const FORWARDED = [undefined, "", "198.51.100.1", " 198.51.100.1 ", "198.51.100.1, 10.0.0.9", "203.0.113.5,198.51.100.1, 127.0.0.1", "junk, 10.9.9.9", ",,"];

describe("proxy trust", () => {
  it("answers as the compiled list does, asked twice (remembered) or once", () => {
    // Fastify's own dependency (not one of ours), resolved from Fastify.
    const fromFastify = createRequire(createRequire(import.meta.url).resolve("fastify"));
    const compiled = (fromFastify("@fastify/proxy-addr") as { compile(list: string[]): (a: string, hop: number) => boolean }).compile(LIST);
    const { trusted } = proxyTrust(LIST);
    for (const peer of [...PEERS, ...PEERS]) expect(trusted(peer, 0), peer).toBe(compiled(peer, 0));
  });

  it("gives Fastify's request.ip, and the lane the same address, for every peer and X-Forwarded-For", async () => {
    const trust = proxyTrust(LIST);
    const withList = Fastify({ trustProxy: LIST });
    const withOurs = Fastify({ trustProxy: trust.option });
    for (const app of [withList, withOurs]) app.get("/ip", async (request) => ({ ip: request.ip ?? null }));
    const laneAddress = clientAddressOf(trust);
    for (const remoteAddress of PEERS.filter((p) => p !== "not-an-ip")) {
      for (const xff of FORWARDED) {
        const headers = xff === undefined ? {} : { "x-forwarded-for": xff };
        const [expected, ours] = await Promise.all(
          [withList, withOurs].map(async (app) => (await app.inject({ url: "/ip", remoteAddress, headers })).json().ip),
        );
        expect(ours, `${remoteAddress} ${xff}`).toBe(expected);
        const req = { headers, socket: { remoteAddress } } as unknown as IncomingMessage;
        expect(laneAddress(req), `lane: ${remoteAddress} ${xff}`).toBe(expected);
      }
    }
    await Promise.all([withList.close(), withOurs.close()]);
  });

  it("passes booleans to Fastify as they are", () => {
    expect(proxyTrust(true).option).toBe(true);
    expect(proxyTrust(false).option).toBe(false);
    expect(proxyTrust(false).trusted("127.0.0.1", 0)).toBe(false);
  });
});
