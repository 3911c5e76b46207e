import { SourceError, type FetchResponse } from "../types.js";

/**
 * What a site's status means, for every adapter: 2xx is a page to read, 404 is not found,
 * 403/429/451 is the site refusing us (a source error, never "no results"), anything else is
 * an HTTP error.
 */
export function pageText(source: string, answer: FetchResponse, what: string): string {
  if (answer.status >= 200 && answer.status < 300) return answer.text;
  if (answer.status === 404 || answer.status === 410) throw new SourceError(source, "not_found", `${what}: ${answer.status}`, answer.status);
  if (answer.status === 403 || answer.status === 429 || answer.status === 451) {
    throw new SourceError(source, "blocked", `${what}: the site refused us (${answer.status})`, answer.status);
  }
  throw new SourceError(source, "http", `${what}: ${answer.status}`, answer.status);
}

/** A JSON answer; a body that is not JSON means the site changed (or answered an error page). */
export function pageJson(source: string, answer: FetchResponse, what: string): unknown {
  const text = pageText(source, answer, what);
  try {
    return JSON.parse(text.replace(/^\uFEFF/u, "")) as unknown;
  } catch {
    throw new SourceError(source, "layout", `${what}: the answer is not JSON`);
  }
}

/** `{keyword}`-style placeholders, URL-encoded (UTF-8). */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/gu, (whole, name: string) => (name in values ? encodeURIComponent(String(values[name])) : whole));
}
