/**
 * The streamed-search bench's pages (bench/search-stream.ts): the search page as a visitor uses it
 * (typed, sent with Enter), and the bare page, the reference for the Chromium rows as a bare
 * server sending the same bytes is the reference for a server's (`--bare`, ADR 0076). The bare
 * page is a few lines at the app's origin (served by Playwright's router, so its fetch is
 * same-origin and goes to the real server): it asks the same stream as the search page, appends
 * each source's titles to a list as they come, and sets the same marks after the frame that paints
 * them. What the browser takes on this machine to fetch, read, lay out and paint a stream's events
 * with nothing of ours in the way: the part of the search page's time that no page can save.
 * Both pages' marks: `search-request`, `search-first-results`, `search-source:{code}`.
 */
import type { Page } from "playwright-core";
import { SEARCH_DEFAULT_PAGE_SIZE } from "../contracts/search-texts.js";

export type Marks = Record<string, number>;

/** In the page: resolves once a performance mark of that name exists (a PerformanceObserver, no polling). */
// No named inner functions: tsx would wrap them in a helper that the page does not have.
function markSet(name: string): Promise<void> {
  return new Promise((resolve) => {
    if (performance.getEntriesByName(name, "mark").length > 0) return resolve();
    const observer = new PerformanceObserver(() => {
      if (performance.getEntriesByName(name, "mark").length === 0) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: "mark" });
  });
}

/**
 * Waits without polling for the last source's mark (Playwright's waits evaluate their check in
 * every animation frame, which kept the renderer drawing frames through the measured burst, on the
 * same two cores as the server), then reads the page's marks.
 */
async function marksOnceLastPainted(p: Page, lastSource: string): Promise<Marks> {
  await p.evaluate(markSet, `search-source:${lastSource}`);
  return p.evaluate(() => Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])));
}

export const typeKeyword = (p: Page, keyword: string) => p.getByLabel("搜索关键词").fill(keyword);

/**
 * Enter in the keyword box (typed before), as most people search: a click first waits for the
 * button to be still over two animation frames (Playwright's actionability, in Chromium at
 * --client-nice), which sent the page's search 40-200 ms after the fetched ones of a burst. Then
 * the page's marks once its last source painted, and a check that it shows the search's results.
 */
export async function submitAndWait(p: Page, keyword: string, lastSource: string): Promise<Marks> {
  await p.keyboard.press("Enter");
  const marks = await marksOnceLastPainted(p, lastSource);
  if (!(await p.getByText(`“${keyword}” 找到`).isVisible())) throw new Error(`the page shows no results for ${keyword}`);
  return marks;
}

const BARE_PATH = "/__bench_bare_search";

const HTML = `<!doctype html><meta charset="utf-8"><title>bare</title><ol id="hits"></ol>
<script>
function afterNextPaint(callback) {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); callback(); };
    channel.port2.postMessage(null);
  });
}
window.bareSearch = async (query) => {
  for (const mark of performance.getEntriesByType("mark")) performance.clearMarks(mark.name);
  const list = document.getElementById("hits");
  list.textContent = "";
  performance.mark("search-request");
  const response = await fetch("/api/forntend/indexsearch/stream?" + query, { headers: { accept: "text/event-stream" } });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let first = true;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    text += chunk.value;
    let end;
    while ((end = text.indexOf("\\n\\n")) >= 0) {
      const frame = text.slice(0, end);
      text = text.slice(end + 2);
      if (!frame.startsWith("event: source")) continue;
      const data = JSON.parse(frame.slice(frame.indexOf("data: ") + 6));
      for (const hit of data.list) {
        const item = document.createElement("li");
        item.textContent = hit.name;
        list.append(item);
      }
      const marks = (first ? ["search-first-results"] : []).concat("search-source:" + data.source);
      first = false;
      afterNextPaint(() => marks.forEach((name) => performance.mark(name)));
    }
  }
};
</script>`;

/** Opens the bare page at the app's origin in `page` (a tab of its own). */
export async function openBarePage(page: Page, origin: string): Promise<void> {
  await page.route(`${origin}${BARE_PATH}`, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: HTML }));
  await page.goto(`${origin}${BARE_PATH}`);
}

/** One search in the bare page, with the search page's query; its marks once its last source painted. */
export async function bareSearch(page: Page, keyword: string, lastSource: string): Promise<Marks> {
  const query = new URLSearchParams({ keyword, page: "1", limit: String(SEARCH_DEFAULT_PAGE_SIZE), type: "mp3" }).toString();
  await page.evaluate((q) => void (window as unknown as { bareSearch: (q: string) => Promise<void> }).bareSearch(q), query);
  return marksOnceLastPainted(page, lastSource);
}
