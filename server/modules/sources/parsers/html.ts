import type { CheerioAPI } from "cheerio";

/**
 * Every built-in reader parses a site's page with this (ADR 0075): htmlparser2 (cheerio/slim), as
 * the plugins' sandbox does, ~3x faster than parse5 on the corpus, on the server's thread.
 */
export { load as loadPage } from "cheerio/slim";

/** A selection, as `$(…)` returns it (no direct import of cheerio's domhandler). */
type Selection = ReturnType<CheerioAPI>;

/** Small helpers shared by the page readers (no site knowledge here). */

/** Every attribute of an element, as the site wrote it (for `raw`). */
export function attributesOf(node: Selection): Record<string, string> {
  return { ...(node.attr() ?? {}) };
}

/** Visible text with runs of white space collapsed. */
export function squashedText(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** The first image address of an element: lazy-loaded pages keep it in data-src (or data-original). */
export function imageAddress(img: Selection): string | null {
  const value = img.attr("data-src") ?? img.attr("data-original") ?? img.attr("src");
  if (!value || value.startsWith("data:")) return null;
  return value.trim() || null;
}
