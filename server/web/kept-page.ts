import { createHash, type Hash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { formatCount } from "../../web/app/components/suite/format";
import { GzipTemplate } from "../http/gzip-template.js";
import { scriptHashCsp } from "../http/security.js";
import { acceptedEncodings, pickEncoding, SharedAnswer } from "../http/shared-answer.js";
import { ownText } from "../lib/own-bytes.js";

/**
 * The view count a kept suite page is rendered with: its digits (in the loader data) and its
 * formatted text (浏览 98765.4万) each occur once in the page, and each request's count is
 * written there instead (ADR 0033).
 */
export const VIEWS_PLACEHOLDER = 987_654_321;
const PLACEHOLDER_DIGITS = String(VIEWS_PLACEHOLDER);
const PLACEHOLDER_TEXT = formatCount(VIEWS_PLACEHOLDER);

/** Inline scripts (no src): what the page's CSP must allow by hash. */
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64");

/** The page cannot be kept as rendered (a status not kept, an error logged, holes not found). */
export class NotKept extends Error {}

/** What a request sends from a kept page: its view count, when the page has one. */
type Holes = { views: number } | null;

/**
 * A rendered page kept for every visitor: its bytes compressed once, its ETag, and its CSP with
 * the hash of each inline script (the same bytes for everyone, so no nonce).
 */
export abstract class KeptPage {
  constructor(
    readonly status: number,
    readonly contentType: string,
  ) {}

  abstract get bytesHeld(): number;
  protected abstract etagFor(holes: Holes): string;
  protected abstract cspFor(holes: Holes): string;
  protected abstract bodyFor(request: FastifyRequest, reply: FastifyReply, holes: Holes): Buffer;

  /** Sends the page: 304 when the client has these very bytes (only a 200 page has an ETag). */
  send(request: FastifyRequest, reply: FastifyReply, holes: Holes = null): FastifyReply {
    reply.code(this.status).type(this.contentType).header("vary", "accept-encoding").header("content-security-policy", this.cspFor(holes));
    if (this.status === 200) {
      const etag = this.etagFor(holes);
      reply.header("etag", etag);
      if (request.headers["if-none-match"] === etag) return reply.code(304).send();
    }
    return reply.send(this.bodyFor(request, reply, holes));
  }
}

/** A page without holes: br or gzip, each made once (SharedAnswer). */
class StaticPage extends KeptPage {
  private readonly answer: SharedAnswer;
  private readonly csp: string;

  constructor(status: number, contentType: string, html: string) {
    super(status, contentType);
    this.answer = new SharedAnswer(html);
    this.csp = scriptHashCsp([...html.matchAll(INLINE_SCRIPT)].map((m) => sha256(m[1])));
    // Compressed now, in the render's time: the plain bytes are let go (re-made for the rare client without either).
    this.answer.encodedAs("gzip");
  }

  get bytesHeld() {
    return this.answer.bytesHeld + 256;
  }

  protected etagFor() {
    return this.answer.etag;
  }

  protected cspFor() {
    return this.csp;
  }

  protected bodyFor(request: FastifyRequest, reply: FastifyReply) {
    const encoding = pickEncoding(request.headers["accept-encoding"]);
    if (!encoding) return this.answer.body;
    reply.header("content-encoding", encoding);
    return this.answer.encodedAs(encoding);
  }
}

/**
 * A suite page: its view count written per request into the visible text and the loader data
 * (gzip only: a brotli stream cannot take holes without compressing). The script holding the
 * count is hashed per request, from the kept hash state of its text before the count.
 */
class ViewsPage extends KeptPage {
  private readonly template: GzipTemplate;
  /** Which hole comes first: the formatted text or the digits. */
  private readonly textFirst: boolean;
  private readonly etagBase: string;
  private readonly cspHead: string;
  private readonly cspTail: string;
  private readonly scriptBefore: Hash;
  /** Bytes of their own: a slice of `html` would keep the whole page's string alive. */
  private readonly scriptAfter: Buffer;

  constructor(status: number, contentType: string, html: string) {
    super(status, contentType);
    const text = onlyPlace(html, PLACEHOLDER_TEXT);
    const digits = onlyPlace(html, PLACEHOLDER_DIGITS);
    const scripts = [...html.matchAll(INLINE_SCRIPT)].map((m) => {
      const start = (m.index ?? 0) + m[0].length - "</script>".length - m[1].length;
      return { start, end: start + m[1].length, body: m[1] };
    });
    const holder = scripts.find((s) => s.start <= digits && digits < s.end);
    if (!holder || scripts.some((s) => s.start <= text && text < s.end)) throw new NotKept("view count not where expected");
    this.textFirst = text < digits;
    const [first, firstLength, second, secondLength] = this.textFirst
      ? [text, PLACEHOLDER_TEXT.length, digits, PLACEHOLDER_DIGITS.length]
      : [digits, PLACEHOLDER_DIGITS.length, text, PLACEHOLDER_TEXT.length];
    this.template = new GzipTemplate([html.slice(0, first), html.slice(first + firstLength, second), html.slice(second + secondLength)]);
    this.etagBase = createHash("sha1").update(html).digest("base64url");
    const hashes = scripts.filter((s) => s !== holder).map((s) => `'sha256-${sha256(s.body)}'`);
    // The per-request hash goes last in script-src.
    const csp = scriptHashCsp(["{views}"]);
    const [head, tail] = csp.split("'sha256-{views}'");
    this.cspHead = `${head}${hashes.join(" ")} 'sha256-`;
    this.cspTail = `'${tail}`;
    this.scriptBefore = createHash("sha256").update(html.slice(holder.start, digits));
    this.scriptAfter = ownText(html.slice(digits + PLACEHOLDER_DIGITS.length, holder.end));
  }

  get bytesHeld() {
    return this.template.bytesHeld + this.scriptAfter.length + 512;
  }

  private holesOf(views: number): string[] {
    return this.textFirst ? [formatCount(views), String(views)] : [String(views), formatCount(views)];
  }

  protected etagFor(holes: Holes) {
    return `"${this.etagBase}-${viewsOf(holes)}"`;
  }

  protected cspFor(holes: Holes) {
    const hash = this.scriptBefore.copy().update(String(viewsOf(holes))).update(this.scriptAfter).digest("base64");
    return this.cspHead + hash + this.cspTail;
  }

  protected bodyFor(request: FastifyRequest, reply: FastifyReply, holes: Holes) {
    const filled = this.holesOf(viewsOf(holes));
    const accepted = acceptedEncodings(request.headers["accept-encoding"]);
    if (!accepted.has("gzip") && !accepted.has("*")) return this.template.plain(filled);
    reply.header("content-encoding", "gzip");
    return this.template.gzip(filled);
  }
}

function viewsOf(holes: Holes): number {
  if (!holes) throw new Error("a suite page is sent with its view count");
  return holes.views;
}

/** The one index of `needle` in `html`; NotKept when it is missing or there twice. */
function onlyPlace(html: string, needle: string): number {
  const at = html.indexOf(needle);
  if (at < 0 || html.indexOf(needle, at + 1) >= 0) throw new NotKept(`${needle} not once in the page`);
  return at;
}

/** A rendered page to keep; `withViews`: a suite page, rendered with VIEWS_PLACEHOLDER. */
export function keptPage(status: number, contentType: string, html: string, withViews: boolean): KeptPage {
  return withViews ? new ViewsPage(status, contentType, html) : new StaticPage(status, contentType, html);
}
