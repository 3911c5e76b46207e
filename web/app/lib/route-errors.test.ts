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

  it("turns the database out of reach into a 503 服务暂时不可用, not logged as a failure of ours", () => {
    const log = vi.fn();
    // As Drizzle throws it: its own error, the driver's in `cause`.
    const err = Object.assign(new Error("Failed query: select 1"), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }) });
    expect(toRouteError(err, "服务器错误", log)).toMatchObject({ data: "服务暂时不可用，请稍后再试", init: { status: 503 } });
    expect(log).not.toHaveBeenCalled();
  });
});
