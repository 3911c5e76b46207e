import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { declaredSchema } from "./encode-answer.js";

describe("routes", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite");
  });
  afterAll(() => t?.close());
  it("lists", () => {
    const missing = t.app.checkedRoutes.filter((r) => !declaredSchema(r.response, 200) && !declaredSchema(r.response, 201));
    console.log(missing.map((r) => `${r.method} ${r.url}`).join("\n"));
    console.log(t.app.checkedRoutes.length);
  });
});
