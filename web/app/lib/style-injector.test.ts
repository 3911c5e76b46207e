import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { HeadInjector } from "./style-injector";

const run = (chunks: string[], inject = "<style>x</style>") =>
  text(Readable.from(chunks).pipe(new HeadInjector(() => inject)));

describe("HeadInjector", () => {
  it("inserts before </head> even when the marker is split across chunks", async () => {
    expect(await run(["<html><head><title>t</title></he", "ad><body>页面</body></html>"])).toBe(
      "<html><head><title>t</title><style>x</style></head><body>页面</body></html>",
    );
  });

  it("inserts once, and passes a document without a head through untouched", async () => {
    expect(await run(["<head></head>", "<p></head></p>"])).toBe(
      "<head><style>x</style></head><p></head></p>",
    );
    expect(await run(["<p>no head</p>"])).toBe("<p>no head</p>");
  });
});
