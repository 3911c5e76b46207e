import iconv from "iconv-lite";

/**
 * Text of an answer: the charset of Content-Type, else a `<meta charset>` (or http-equiv) near
 * the top of an HTML page, else the encoding the adapter expects of its site, else UTF-8.
 * GB2312 pages are decoded as GBK (its superset, as browsers do).
 */

const ALIASES: Record<string, string> = { gb2312: "gbk", "x-gbk": "gbk", gbk: "gbk", gb18030: "gb18030", "utf8": "utf-8" };

function normaliseCharset(name: string | undefined | null): string | null {
  if (!name) return null;
  const lower = name.trim().replace(/^["']|["']$/gu, "").toLowerCase();
  const known = ALIASES[lower] ?? lower;
  return iconv.encodingExists(known) ? known : null;
}

export function charsetOf(contentType: string | undefined): string | null {
  return normaliseCharset(/charset\s*=\s*([^;\s]+)/iu.exec(contentType ?? "")?.[1]);
}

/** `<meta charset="gbk">` or `<meta http-equiv="Content-Type" content="text/html; charset=gb2312">` in the first 2 KB. */
export function metaCharsetOf(body: Buffer): string | null {
  const head = body.subarray(0, 2048).toString("latin1");
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/iu.exec(head);
  return normaliseCharset(match?.[1]);
}

export function decodeBody(body: Buffer, contentType: string | undefined, expected?: string): string {
  const charset = charsetOf(contentType) ?? metaCharsetOf(body) ?? normaliseCharset(expected) ?? "utf-8";
  // Node's own decoder for UTF-8 (most pages): several times faster than iconv-lite's.
  if (charset === "utf-8") return body.toString("utf8").replace(/^\uFEFF/u, "");
  return iconv.decode(body, charset);
}
