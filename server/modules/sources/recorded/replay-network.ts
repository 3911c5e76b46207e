import type { FetchAnswer, GuestFetchRequest } from "../../plugins/sandbox/protocol.js";
import type { RecordedRow } from "./repo.js";

/**
 * The network of a replay (issue 22): a plugin's requests answered from a source's recorded
 * answers instead of the internet. A request matches an answer by URL with its query in any
 * order (the newest answer of a URL wins); one that matches nothing fails with a clear message.
 */

export const UNMATCHED = "回放: 没有这个地址的样本";

/** The URL with its query parameters sorted and no fragment: equal for the same request. */
export function matchKey(url: string): string {
  try {
    const parsed = new URL(url);
    const params = [...parsed.searchParams.entries()].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
    const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
    return `${parsed.protocol}//${parsed.host.toLowerCase()}${parsed.pathname}${query ? `?${query}` : ""}`;
  } catch {
    return url;
  }
}

export function replayNetwork(rows: readonly Pick<RecordedRow, "url" | "status" | "headers" | "body">[]): { answer(request: GuestFetchRequest): Promise<FetchAnswer>; asked: string[] } {
  const byKey = new Map<string, (typeof rows)[number]>();
  for (const row of rows) byKey.set(matchKey(row.url), row);
  const asked: string[] = [];
  return {
    asked,
    async answer(request) {
      asked.push(request.url);
      const row = byKey.get(matchKey(request.url));
      if (!row) return { meta: { error: `${UNMATCHED} ${request.url}`, code: "ERR_NETWORK" } };
      // A copy each time: the bytes are moved to the sandbox's worker, not shared.
      const bytes = new ArrayBuffer(row.body.byteLength);
      new Uint8Array(bytes).set(row.body);
      return { meta: { status: row.status, url: row.url, headers: { ...row.headers } }, bytes };
    },
  };
}
