import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach } from "vitest";
import { openBrowsers, recentActivity } from "./browser";

/**
 * When a browser test fails, what its browser showed: each open page's address and the text of
 * its open dialogs and messages, added to the failure's message (a CI log keeps the message,
 * not the pictures), and a screenshot of each page in test-results/failures/. A failure seen
 * once on a busy machine then says what the page was doing instead of only what it waited for.
 */
const DIR = path.resolve("test-results/failures");

afterEach(async ({ task }) => {
  const error = task.result?.state === "fail" ? task.result.errors?.[0] : undefined;
  if (!error || openBrowsers.size === 0) return;
  const lines: string[] = [];
  const name = `${path.basename(task.file?.name ?? "test", ".test.ts")}-${task.name}`.replace(/[^\p{L}\p{N}-]+/gu, "_").slice(0, 80);
  let n = 0;
  for (const browser of openBrowsers) {
    for (const context of browser.contexts()) {
      const activity = recentActivity.get(context) ?? [];
      if (activity.length > 0) lines.push(`context ${browser.contexts().indexOf(context) + 1}, its last API answers and errors:`, ...activity.map((a) => `  ${a}`));
    }
    for (const page of browser.contexts().flatMap((c) => c.pages())) {
      if (page.isClosed()) continue;
      n++;
      const seen = await page
        .evaluate(() =>
          [...document.querySelectorAll<HTMLElement>("[role=dialog], .ant-message-notice, [role=alert]")]
            .filter((el) => el.checkVisibility())
            .map((el) => `${el.getAttribute("role") ?? el.className.split(" ")[0]}: ${el.innerText.replace(/\s+/g, " ").trim().slice(0, 300)}`)
            .filter((line) => !line.endsWith(": ")),
        )
        .catch((err: Error) => [`(not readable: ${err.message.split("\n")[0]})`]);
      const file = path.join(DIR, `${name}-${n}.png`);
      mkdirSync(DIR, { recursive: true });
      const shot = await page.screenshot({ path: file, timeout: 5_000 }).then(
        () => file,
        () => "no screenshot",
      );
      lines.push(`page ${n}: ${page.url()} (${path.relative(process.cwd(), shot)})`, ...seen.map((s) => `  ${s}`));
    }
  }
  if (lines.length > 0) error.message += `\n\nWhat the browser showed at the failure:\n${lines.join("\n")}`;
});
