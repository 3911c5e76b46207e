import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Frame, type Page, type Request } from "playwright-core";

/**
 * Debian's Chromium headless shell (the same Blink and V8 without the browser's UI), installed by
 * scripts/ensure-browser.sh: on this project's 2-core machines the full browser's renderer and
 * browser processes took ~1.7 times the CPU for the same pages (ADR 0072). Debian's full
 * Chromium where the shell is missing; override with CHROMIUM_PATH.
 */
export const HEADLESS_SHELL_PATH = "/usr/bin/chromium-headless-shell";
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : "/usr/bin/chromium");

export interface LaunchOptions {
  /**
   * Chromium as root raises its renderer, compositor and IO threads to nice -8: above the other
   * processes of its session, and of the machine where the kernel has no autogroups (ADR 0074).
   * The benchmarks measure a server beside the browser on shared cores, where a visitor's
   * browser would be on a device of its own: they launch it without that capability
   * (scripts/chromium-unboosted.sh). Ignored when not root or without setpriv.
   */
  unboosted?: boolean;
}

const UNBOOSTED_WRAPPER = fileURLToPath(new URL("../scripts/chromium-unboosted.sh", import.meta.url));
const canDropPriorityBoost = () => process.getuid?.() === 0 && existsSync("/usr/bin/setpriv");

/**
 * Headless Chromium as root on a machine with no outside network: the background-networking
 * flags stop it from trying (and failing) to reach Google's hosts at every start.
 */
export async function launchBrowser({ unboosted = false }: LaunchOptions = {}): Promise<Browser> {
  const wrapped = unboosted && canDropPriorityBoost();
  const browser = await chromium.launch({
    executablePath: wrapped ? UNBOOSTED_WRAPPER : CHROMIUM_PATH,
    ...(wrapped ? { env: { ...process.env, CHROMIUM_UNBOOSTED_BINARY: CHROMIUM_PATH } } : {}),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
  openBrowsers.add(browser);
  browser.on("disconnected", () => openBrowsers.delete(browser));
  // Pages are opened asking for reduced motion, so antd's dialogs and menus appear without their
  // zoom and slide: a click on a dialog still moving into place landed beside its target on a
  // loaded machine (a lost 扣除 pick, a lost 取消). And without the service worker (ADR 0073):
  // installed on a context's first page, it claims the open pages at a moment of its own, and
  // from then on their fetches pass page.route and page.on("request") by (the logout flake of
  // e2e/shell.test.ts). The worker's own tests (e2e/settings-pwa.test.ts) ask for it. A test that
  // passes its own reducedMotion or serviceWorkers keeps it.
  const defaults = { reducedMotion: "reduce", serviceWorkers: "block" } as const;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => recordActivity(await newContext({ ...defaults, ...options }));
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage({ ...defaults, ...options });
    recordActivity(page.context());
    return page;
  };
  return browser;
}

/** The last API answers and console errors of each context, for e2e/failure-report.ts. */
export const recentActivity = new WeakMap<BrowserContext, string[]>();

function recordActivity(context: BrowserContext): BrowserContext {
  const lines: string[] = [];
  recentActivity.set(context, lines);
  const keep = (line: string) => lines.push(line) > 12 && lines.shift();
  context.on("response", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) keep(`${r.status()} ${r.request().method()} ${url.pathname}${url.search}`);
  });
  context.on("requestfailed", (r) => keep(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
  context.on("console", (m) => void (m.type() === "error" && keep(`console: ${m.text().slice(0, 200)}`)));
  return context;
}

/** The browsers this test file launched and has not closed: e2e/failure-report.ts looks at their pages. */
export const openBrowsers = new Set<Browser>();

/**
 * Waits until no antd dialog, drawer or dropdown is still in its opening animation. Playwright
 * counts an element at opacity 0 as visible, so a dialog's text is found while the dialog is
 * still zooming in; a picture then shows only the mask.
 */
export async function settledDialogs(page: Page) {
  await page.waitForFunction(() => !document.querySelector(".ant-zoom-enter, .ant-zoom-appear, .ant-fade-enter, .ant-fade-appear"));
}

/** Resolves once React has hydrated the page (root.tsx marks <html data-hydrated="1">). */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "1");
}

/**
 * Opens the navbar's user menu (`trigger`: the member's name) by hover and clicks the menu item
 * `item` until the page asks the server `path`. On a loaded machine the menu can close before a
 * click lands, and a click's request can come later than `requestWithinMs` (a logout first waits
 * for calls in flight): a request seen while the next try hovers or clicks ends it, since the
 * click may have taken the name off the page (a CI run beside a busy-loop saw the logout sent
 * after 10 s, and the next hover waited for a name no longer there).
 */
export async function clickUserMenuItem(page: Page, trigger: string, item: string, path: string, { requestWithinMs = 3_000 } = {}) {
  let asked = false;
  let requestSeen!: () => void;
  const seen = new Promise<void>((resolve) => (requestSeen = resolve));
  const watch = (r: { url(): string }) => {
    if (new URL(r.url()).pathname !== path) return;
    asked = true;
    requestSeen();
  };
  /** A step of a try, given up without an error once the request is seen. */
  const unlessAsked = (step: Promise<unknown>) => {
    step.catch(() => undefined);
    return Promise.race([step, seen]);
  };
  // What the page did meanwhile, for a failure's message (it showed a service worker that had
  // claimed the page sending the calls past page.route and page.on("request")).
  const started = Date.now();
  const journal: string[] = [];
  const note = (line: string) => journal.push(`${Date.now() - started} ms ${line}`);
  const onRequest = (r: Request) => {
    if (!["image", "font", "media"].includes(r.resourceType())) note(`${r.method()} ${new URL(r.url()).pathname} (${r.resourceType()}${r.serviceWorker() ? ", from the service worker" : ""})`);
  };
  const onNavigated = (f: Frame) => f === page.mainFrame() && note(`navigated ${f.url()}`);
  const onConsole = (m: ConsoleMessage) => note(`console.${m.type()} ${m.text().slice(0, 200)}`);
  page.on("request", watch);
  page.on("request", onRequest);
  page.on("framenavigated", onNavigated);
  page.on("console", onConsole);
  try {
    for (let attempt = 1; !asked; attempt++) {
      await unlessAsked(page.getByRole("banner").getByText(trigger).hover({ timeout: 10_000 }));
      if (asked) break;
      await unlessAsked(page.getByRole("menuitem", { name: item, exact: true }).click({ timeout: 10_000 }));
      // How long one click is given to send its request.
      const deadline = Date.now() + requestWithinMs;
      while (!asked && Date.now() < deadline) await page.waitForTimeout(100);
      if (!asked && attempt === 5) throw new Error(`${item}: no request to ${path} after ${attempt} clicks, at ${page.url()}`);
    }
  } catch (err) {
    const state = await page
      .evaluate(() => ({
        controlledByServiceWorker: Boolean(navigator.serviceWorker?.controller),
        navigation: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined)?.type,
        chunkReloadAt: sessionStorage.getItem("chunk-reload-at"),
        token: localStorage.getItem("token") !== null,
      }))
      .catch((e: Error) => e.message);
    throw new Error(`${(err as Error).message}\npage: ${JSON.stringify(state)}\n${journal.join("\n")}`, { cause: err });
  } finally {
    page.off("request", watch);
    page.off("request", onRequest);
    page.off("framenavigated", onNavigated);
    page.off("console", onConsole);
  }
}
