import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { scriptHashCsp, securityHeaders } from "../http/security.js";
import { type Encoding, pickEncoding, SharedAnswer } from "../http/shared-answer.js";

/** Inline scripts (no src): what the page's CSP must allow by hash. */
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64");

/** The page cannot be kept as rendered (a status not kept, an error logged). */
export class NotKept extends Error {}

/**
 * A rendered page kept for every visitor, suite pages included (ADR 0053): the same bytes for
 * everyone, compressed once (br or gzip, SharedAnswer), its ETag the body's hash, and its
 * headers, the CSP with the hash of each inline script among them, made once with the page.
 * A request only picks the encoding; headers that vary (a new visitor's cookie) are set beside.
 */
export class KeptPage {
  private readonly answer: SharedAnswer;
  private readonly csp: string;

  constructor(
    readonly status: number,
    readonly contentType: string,
    html: string,
  ) {
    this.answer = SharedAnswer.text(html, contentType);
    this.csp = scriptHashCsp([...html.matchAll(INLINE_SCRIPT)].map((m) => sha256(m[1])));
    // Compressed now, in the render's time: the plain bytes are let go (re-made for the rare client without either).
    this.answer.encodedAs("gzip");
  }

  get bytesHeld() {
    // Each of the lane's header lists holds the CSP again, besides helmet's ~600 bytes.
    return this.answer.bytesHeld + 256 + this.csp.length + this.laneAnswers.size * (1024 + this.csp.length);
  }

  get etag() {
    return this.answer.etag;
  }

  /**
   * The page as the kept-page lane writes it (kept-lane.ts): status, every header but the
   * request's id (flat name, value, name, value…, made once per encoding) and body; the same
   * headers `send` and the app's hooks give it (kept-lane.test.ts compares them).
   */
  laneAnswer(encoding: Encoding | null, ifNoneMatch: string | undefined): LaneAnswer {
    const notModified = this.status === 200 && ifNoneMatch === this.answer.etag;
    const form = notModified ? "304" : (encoding ?? "identity");
    let answer = this.laneAnswers.get(form);
    if (!answer) {
      const body = notModified ? undefined : encoding ? this.answer.encodedAs(encoding) : this.answer.body;
      const headers = securityHeaders().flat();
      headers.push("content-security-policy", this.csp, "content-type", this.contentType, "vary", "accept-encoding");
      if (this.status === 200) headers.push("etag", this.answer.etag);
      if (body && encoding) headers.push("content-encoding", encoding);
      if (body) headers.push("content-length", String(body.length));
      answer = { status: notModified ? 304 : this.status, headers, body };
      // The plain bytes are made again per call for the rare client without br or gzip: not kept.
      if (encoding || notModified) this.laneAnswers.set(form, answer);
    }
    return answer;
  }

  private readonly laneAnswers = new Map<string, LaneAnswer>();

  /** Sends the page: 304 when the client has these very bytes (only a 200 page has an ETag). */
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    reply.code(this.status).header("content-type", this.contentType).header("vary", "accept-encoding").header("content-security-policy", this.csp);
    if (this.status === 200) {
      reply.header("etag", this.answer.etag);
      if (request.headers["if-none-match"] === this.answer.etag) return reply.code(304).send();
    }
    const encoding = pickEncoding(request.headers["accept-encoding"]);
    if (!encoding) return reply.send(this.answer.body);
    return reply.header("content-encoding", encoding).send(this.answer.encodedAs(encoding));
  }
}

export interface LaneAnswer {
  status: number;
  /** Flat: name, value, name, value… */
  headers: string[];
  /** None for a 304. */
  body: Buffer | undefined;
}

/** A rendered page to keep. */
export function keptPage(status: number, contentType: string, html: string): KeptPage {
  return new KeptPage(status, contentType, html);
}
