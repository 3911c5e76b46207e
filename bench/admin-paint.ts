/**
 * First contentful paint of back-office screens (issue 25, point 2: ≤ 1 s on a quiet machine;
 * ADR 0064). Each load is a new browser context (cold cache, signed in through localStorage, as a
 * returning operator opening a bookmarked screen), 1440 px, Debian's Chromium; the median of
 * `--runs` loads per screen is the number, every run is listed too.
 *
 *   npx tsx bench/admin-paint.ts --url http://127.0.0.1:3000 --username admin --password '…' [--runs 5]
 *
 * Against a server already running as `npm start` runs it. The account's password must already be
 * changed from the first-start one (a must-change account only sees the change dialog).
 */
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:3000" },
    username: { type: "string", default: "admin" },
    password: { type: "string" },
    runs: { type: "string", default: "5" },
    screens: { type: "string", default: "/panda/sutieList,/panda/" },
  },
});
const base = values.url.replace(/\/$/, "");
const runs = Number(values.runs);

const login = await fetch(`${base}/api/pandaadmin/login`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ username: values.username, password: values.password }),
});
const answer = (await login.json()) as { code: number; msg: string; data?: { token: string } };
if (answer.code !== 1 || !answer.data) throw new Error(`login failed: ${answer.msg}`);
const token = answer.data.token;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
try {
  for (const screen of values.screens.split(",")) {
    const paints: number[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "zh-CN" });
      await context.addInitScript((t) => localStorage.setItem("admin_token", t), token);
      const page = await context.newPage();
      await page.goto(base + screen, { waitUntil: "load" });
      const fcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const fcp = list.getEntriesByName("first-contentful-paint")[0];
              if (fcp) resolve(fcp.startTime);
            }).observe({ type: "paint", buffered: true });
          }),
      );
      paints.push(Math.round(fcp));
      await context.close();
    }
    const sorted = [...paints].sort((a, b) => a - b);
    console.log(`${screen}: first contentful paint median ${sorted[Math.floor(runs / 2)]} ms (runs: ${paints.join(", ")} ms)`);
  }
} finally {
  await browser.close();
}
