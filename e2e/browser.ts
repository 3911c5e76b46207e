import { chromium, type Browser, type Page } from "playwright-core";

/** Debian's Chromium, installed by scripts/ensure-browser.sh; override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Headless Chromium as root on a machine with no outside network: the background-networking
 * flags stop it from trying (and failing) to reach Google's hosts at every start.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
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
}

/** Resolves once React has hydrated the page (root.tsx marks <html data-hydrated="1">). */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "1");
}
