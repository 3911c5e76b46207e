import { Button } from "antd";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SafeErrorPage } from "./components/errors/ErrorPage";
import { GuardGate } from "./guards/GuardGate";
import { type AppContext, appContext } from "./lib/app-context";
import * as root from "./root";
import { testServerBuild } from "./test-support/server-build";

const NONCE = "dGVzdC1ub25jZQ==";

function render(path: string, pages: Record<string, Record<string, unknown>>) {
  const build = testServerBuild([
    { id: "root", path: "", module: root },
    ...Object.entries(pages).map(([p, module]) => ({ id: p, parentId: "root", path: p, module })),
  ]);
  // These pages have no loaders, so they need no services.
  const context = new RouterContextProvider(new Map([[appContext, { cspNonce: NONCE } as AppContext]]));
  return createRequestHandler(build, "production")(new Request(`http://test${path}`), context);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("SSR document", () => {
  it("is Chinese, nonce'd, with antd styles inlined in the head", async () => {
    const response = await render("/ok", {
      ok: { default: () => <Button type="primary">播放</Button> },
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="zh-CN">/);
    expect(html).toContain("<title>DJ搜索引擎网</title>");
    const [head] = html.split("</head>");
    expect(head).toMatch(/<style[^>]*data-css-hash[^>]*>[^<]*\.ant-btn/);
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs] of scripts) expect(attrs).toContain(`nonce="${NONCE}"`);
  });

  it("an unknown middleware name renders a 500 page 'Unknown middleware {name}'", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await render("/guarded", {
      guarded: {
        handle: { middleware: ["vip"] },
        default: () => (
          <GuardGate>
            <p>secret</p>
          </GuardGate>
        ),
      },
    });
    expect(response.status).toBe(500);
    const html = await response.text();
    const body = html.slice(html.indexOf("<body>"), html.indexOf("<script", html.indexOf("<body>")));
    expect(body).toMatch(/data-status="500"/);
    expect(body).toContain(">Unknown middleware vip<");
    expect(body).toContain(">Back to the home page<");
    expect(html).not.toContain("secret");
  });

  it("a guarded page is server-rendered as the neutral loading state", async () => {
    const response = await render("/mine", {
      mine: {
        handle: { middleware: ["auth"] },
        default: () => (
          <GuardGate>
            <p>secret</p>
          </GuardGate>
        ),
      },
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('role="status"');
    expect(html).not.toContain("secret");
  });

  it("when the error page itself fails, shows the fallback with 'Go back to home'", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = () => {
      throw new Error("the error page broke");
    };
    const response = await render("/fails", {
      fails: {
        loader: () => {
          throw new Response(null, { status: 404 });
        },
        default: () => null,
        ErrorBoundary: () => <SafeErrorPage error={null} render={broken} />,
      },
    });
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("An error occurred while showing the error page");
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Go back to home<\/a>/);
  });
});
