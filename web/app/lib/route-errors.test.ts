import { describe, expect, it, vi } from "vitest";
import { toRouteError } from "./route-errors";

describe("toRouteError", () => {
  it("keeps a service's 4xx status and Chinese message, and logs nothing", () => {
    const log = vi.fn();
    const err = Object.assign(new Error("分类不存在"), { status: 404 });
    expect(toRouteError(err, "服务器错误", log)).toMatchObject({ data: "分类不存在", init: { status: 404 } });
    expect(log).not.toHaveBeenCalled();
  });

  it("turns anything else into a 500 with the page's text, hiding the details, and logs the error", () => {
    const log = vi.fn();
    const err = new Error("connection refused");
    expect(toRouteError(err, "服务器错误", log)).toMatchObject({ data: "服务器错误", init: { status: 500 } });
    expect(log).toHaveBeenCalledWith(err);
  });
});
