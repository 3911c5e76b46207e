import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { data, MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { RouteHttpError } from "../../lib/http-error";
import { ErrorPage, ErrorPageBoundary } from "./ErrorPage";
import { describeError, describeHomeLoadError } from "./error-text";

const inRouter = (node: ReactNode) => renderToString(<MemoryRouter>{node}</MemoryRouter>);

/** What React Router hands to an ErrorBoundary after `throw data(...)` in a loader. */
function thrownByLoader(body: unknown, status: number) {
  const init = data(body, { status });
  return { status, statusText: "", internal: false, data: init.data };
}

describe("error page", () => {
  it("404 without a message: the spec's text and link home", () => {
    const html = inRouter(<ErrorPage error={thrownByLoader(null, 404)} />);
    expect(html).toContain(">404<");
    expect(html).toContain(">This page could not be found<");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Back to the home page<\/a>/);
  });

  it("shows a route's own message (页面不存在) and status", () => {
    expect(describeError(thrownByLoader("页面不存在", 404))).toEqual({
      status: 404,
      message: "页面不存在",
    });
    expect(describeError(new RouteHttpError(500, "Unknown middleware x"))).toEqual({
      status: 500,
      message: "Unknown middleware x",
    });
    // Anything else is a 500 without leaking details.
    expect(describeError(new Error("db password wrong"))).toEqual({
      status: 500,
      message: "An error occurred",
    });
  });

  it("when the error page itself throws in the browser, the boundary shows the fallback", () => {
    expect(ErrorPageBoundary.getDerivedStateFromError()).toEqual({ failed: true });
    const boundary = new ErrorPageBoundary({ children: <p>never</p> });
    boundary.state = ErrorPageBoundary.getDerivedStateFromError();
    const html = renderToString(<>{boundary.render()}</>);
    expect(html).toContain("An error occurred while showing the error page");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Go back to home<\/a>/);
    expect(html).not.toContain("never");
  });

  it("home load: the spec's texts for 404/403/500, the server's msg or 服务器错误 otherwise, and no answer", () => {
    expect(describeHomeLoadError(thrownByLoader("whatever", 404))).toEqual({ status: 404, message: "页面未找到" });
    expect(describeHomeLoadError(thrownByLoader(null, 403))).toEqual({ status: 403, message: "没有访问权限" });
    expect(describeHomeLoadError(thrownByLoader("服务器错误", 500))).toEqual({ status: 500, message: "服务器内部错误" });
    expect(describeHomeLoadError(thrownByLoader("请求太频繁", 429))).toEqual({ status: 429, message: "请求太频繁" });
    expect(describeHomeLoadError(thrownByLoader(null, 502))).toEqual({ status: 502, message: "服务器错误" });
    const offline = describeHomeLoadError(new TypeError("Failed to fetch"));
    expect(offline).toEqual({ status: 0, message: "网络连接失败，请检查您的网络连接" });
    const html = inRouter(<ErrorPage error={new TypeError("Failed to fetch")} describe={describeHomeLoadError} />);
    expect(html).toContain("网络连接失败，请检查您的网络连接");
    expect(html).not.toContain('class="' + "code");
  });
});
