import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { DocumentFinisher, deferScripts, finishDocument } from "./finish-document";

const doc = (body: string) =>
  `<html><head><title>夜曲</title><link rel="modulepreload" href="/assets/a.js" nonce="n"/><link rel="stylesheet" href="/s.css"/></head><body>${body}</body></html>`;
const routerScript = `<script nonce="n" type="module" async="">;
import * as route0 from "/assets/root.js";
import * as route1 from "/assets/home.js";
  window.__reactRouterManifest = {"a":1};
  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};

import("/assets/entry.client.js");</script>`;

describe("finishing the server-rendered document", () => {
  it("puts the styles before </head>, joining chunks split inside a character", async () => {
    const bytes = Buffer.from(doc("<p>页面</p>"));
    const cut = bytes.indexOf(Buffer.from("页")) + 1;
    const out = await text(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]).pipe(new DocumentFinisher(() => "<style>x</style>")));
    expect(out).toContain('<style>x</style></head><body><p>页面</p>');
    expect(out).toContain("<title>夜曲</title>");
  });

  it("drops the module preloads and loads the route modules after the first frame, then the entry", () => {
    const out = deferScripts(doc(`<p>x</p>${routerScript}`));
    expect(out).not.toContain("modulepreload");
    expect(out).toContain('<link rel="stylesheet" href="/s.css"/>');
    expect(out).not.toMatch(/import \* as/);
    const script = out.slice(out.indexOf("<script"));
    const order = ["requestAnimationFrame", 'import("/assets/root.js")', 'import("/assets/home.js")', "__reactRouterManifest", "__reactRouterRouteModules", 'import("/assets/entry.client.js")'];
    const at = order.map((s) => script.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(script).toContain("const [route0, route1] = await Promise.all(");
  });

  it("leaves a document without React Router's module script as it is", () => {
    const plain = doc("<p>no scripts</p>");
    expect(deferScripts(plain)).toBe(plain);
    expect(finishDocument("<p>no head</p>", "<style>x</style>")).toBe("<p>no head</p>");
  });
});
