import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { libraryPaths } from "@contracts/library";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { testEngines } from "../../testing/test-db.js";

/** Every library call is in the OpenAPI page: member calls tagged `user` with the bearer scheme, with their parameters. */
describe.each(testEngines())("library calls in the API docs on %s", (engine) => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, any>> };

  beforeAll(async () => {
    t = await createTestApp(engine);
    doc = (await t.app.inject({ url: "/api/docs/json" })).json();
  });
  afterAll(() => t?.close());

  it("lists every path with its tag, security and parameters", () => {
    const methods: Record<string, string> = {
      favorites: "get",
      downloads: "get",
      itemState: "get",
      comments: "get",
      player: "get",
      playerPositions: "put",
      playerQueue: "put",
    };
    for (const [name, path] of Object.entries(libraryPaths)) {
      const op = doc.paths[path]?.[methods[name] ?? "post"];
      expect(op, path).toBeDefined();
      if (name === "comments") {
        expect(op.tags).toEqual(["frontend"]);
        expect(op.security).toBeUndefined();
      } else {
        expect(op.tags, path).toEqual(["user"]);
        expect(op.security, path).toEqual([{ bearer: [] }]);
      }
    }
    const body = (path: string, method = "post") => Object.keys(doc.paths[path][method].requestBody.content["application/json"].schema.properties).sort();
    expect(body(libraryPaths.favorite)).toEqual(["id"]);
    expect(body(libraryPaths.comment)).toEqual(["content", "id"]);
    expect(body(libraryPaths.playerQueue, "put")).toEqual(["ids", "index"]);
    const query = (path: string) => doc.paths[path].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(query(libraryPaths.favorites)).toEqual(["page", "size"]);
    expect(query(libraryPaths.comments)).toEqual(["id", "page"]);
    expect(query(libraryPaths.itemState)).toEqual(["ids"]);
  });
});
