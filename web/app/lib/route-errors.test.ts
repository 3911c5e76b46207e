import { describe, expect, it } from "vitest";
import { toRouteError } from "./route-errors";

describe("toRouteError", () => {
  it("keeps a service's 4xx status and Chinese message", () => {
    const err = Object.assign(new Error("分类不存在"), { status: 404 });
    expect(toRouteError(err, "服务器错误")).toMatchObject({ data: "分类不存在", init: { status: 404 } });
  });

  it("turns anything else into a 500 with the page's text, hiding the details", () => {
    expect(toRouteError(new Error("connection refused"), "服务器错误")).toMatchObject({
      data: "服务器错误",
      init: { status: 500 },
    });
  });
});
