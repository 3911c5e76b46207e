import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildServer } from "../scripts/build-server.js";
import { MIGRATIONS_FOLDER } from "./db/migrate.js";
import { DEMO_ASSETS_DIR } from "./demo-media/prepare-demo-media.js";

describe("the server build (build/node, ADR 0037)", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it("keeps each module's files found next to its source, wherever the bundle lands", async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), "djbuild-"));
    dirs.push(outDir);
    const entry = path.join(import.meta.dirname, "build-server.fixture.ts");
    await buildServer(outDir, entry);
    const built = (await import(pathToFileURL(path.join(outDir, "build-server.fixture.js")).href)) as Record<string, string>;
    expect(built.migrations).toBe(MIGRATIONS_FOLDER);
    expect(built.demoAssets).toBe(DEMO_ASSETS_DIR);
    expect(built.bundled).toBe(pathToFileURL(entry).href);
  });
});
