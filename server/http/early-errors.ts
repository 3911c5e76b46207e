/**
 * Answers for what never reaches a route: a connection Node's parser gave up on (headers too
 * large, a request that never finished arriving, garbage), a URL the router cannot decode,
 * a malformed Host. They get what every other error gets: the envelope with a Chinese message
 * (or, for a page address, a small error page), the usual security headers and a 4xx; they are
 * logged at info level, as any client error, never as a server error.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { fail } from "@contracts/envelope";
import { errorPageTexts, serverMessages } from "@contracts/messages";
import { SITE_NAME } from "@contracts/site";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { escapeHtml } from "../lib/escape-html.js";
import { DEFAULT_EXCLUDED_PREFIXES, isExcluded } from "../web/shared.js";
import { encodeAnswer, errorAnswerSchema } from "./encode-answer.js";
import { withRequestId } from "./error-handler.js";
import { REQUEST_ID_HEADER } from "./request-id.js";
import { API_CSP, securityHeaders } from "./security.js";

/** The static error page needs nothing but its inline style. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/** A page address (the web shell's), answered with an HTML page rather than the envelope. */
export function isPageRequest(method: string | undefined, url: string | undefined): boolean {
  return (method === "GET" || method === "HEAD") && !!url && url.startsWith("/") && !isExcluded(url, DEFAULT_EXCLUDED_PREFIXES);
}

/** Our words (the spec has none for it): what a visitor quotes when reporting the error. */
const REQUEST_ID_LABEL = "请求编号：";

/**
 * The site's title in the settings for an early page, never waiting (`titleNow`): these answers
 * come before any service and must not hang on the database. A bare Fastify (no services) has
 * the default.
 */
function siteTitleOf(app: FastifyInstance): string {
  return app.services?.siteSettings.titleNow() ?? SITE_NAME;
}

/** The error page's shape (status, message, the spec's link home), without React or scripts. */
function errorPage(status: number, message: string, siteTitle: string, requestId?: string): string {
  // A request id is ours (request-id.ts accepts only [A-Za-z0-9._:-]), safe in HTML as is.
  const reference = requestId ? `<p><small>${REQUEST_ID_LABEL}${requestId}</small></p>` : "";
  return (
    `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${message} - ${escapeHtml(siteTitle)}</title><style>body{margin:0;font-family:system-ui,"PingFang SC","Microsoft YaHei",sans-serif;color:#1f1b2e;background:#f5f4fa}` +
    `main{max-width:480px;margin:20vh auto;text-align:center}div{font-size:48px;font-weight:700}a{color:#6c3ce0}</style></head>` +
    `<body><main data-status="${status}"><div>${status}</div><p>${message}</p>${reference}<a href="/">${errorPageTexts.backHome}</a></main></body></html>`
  );
}

/**
 * Status, headers and body of an early error answer. `message` is one of ours, never input.
 * A page (for a page address) is named by the site's title; the API gets the envelope.
 * A 5xx names its request (ADR 0044); the raw-socket answers have no request (and are 4xx).
 */
function earlyAnswer(status: number, message: string, page: { siteTitle: string } | undefined, requestId?: string) {
  const named = status >= 500 ? requestId : undefined;
  const body = page ? errorPage(status, message, page.siteTitle, named) : encodeAnswer(errorAnswerSchema, named ? withRequestId(fail(message), named) : fail(message));
  const headers: [string, string][] = [
    ...securityHeaders(),
    ["content-security-policy", page ? PAGE_CSP : API_CSP],
    ["content-type", page ? "text/html; charset=utf-8" : "application/json; charset=utf-8"],
    ["cache-control", "no-store"],
  ];
  return { body, headers };
}

/** Sends an early error on a Fastify reply (hooks may not have run: every header is set here). */
export function sendEarlyError(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  // The title only for a page: an API answer starts no read of the settings.
  const page = isPageRequest(request.method, request.url) ? { siteTitle: siteTitleOf(request.server) } : undefined;
  const { body, headers } = earlyAnswer(status, message, page, request.id);
  for (const [name, value] of headers) reply.header(name, value);
  reply.header(REQUEST_ID_HEADER, request.id);
  return reply.code(status).send(body);
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: serverMessages.badAddress,
  FST_ERR_MAX_PARAM_LENGTH: serverMessages.badAddress,
};

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode, a path parameter too long (the
 * client's fault, 4xx); a failing route constraint would be ours (500, logged as an error).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 400;
  if (status >= 500) {
    request.log.error({ err: error }, "request failed");
    return sendEarlyError(request, reply, 500, serverMessages.internal);
  }
  request.log.info({ code: error.code, url: request.url }, "client error");
  return sendEarlyError(request, reply, status, FRAMEWORK_MESSAGES[error.code] ?? serverMessages.badRequest);
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, serverMessages.headersTooLarge],
  ERR_HTTP_REQUEST_TIMEOUT: [408, serverMessages.requestTimeout],
};

/** The bytes the parser failed on, when they begin with a request line: a page request? */
function wasPageRequest(rawPacket: unknown): boolean {
  if (!Buffer.isBuffer(rawPacket)) return false;
  // The path's start is enough to tell (it may be the over-long part).
  const line = /^([A-Z]+) (\/[^\s]*)/.exec(rawPacket.toString("latin1", 0, 512));
  return !!line && isPageRequest(line[1], line[2]);
}

/**
 * Fastify's `clientErrorHandler` (Node's `clientError`): the socket has no request object,
 * so the answer is written raw, then the connection is closed (as Node itself does).
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket) {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[err.code ?? ""] ?? [400, serverMessages.badRequest];
  this.log.info({ code: err.code, remoteAddress: socket.remoteAddress }, "client error");
  // Only when nothing of a response went out yet (a request timing out mid-answer just closes).
  if (socket.writable && socket.bytesWritten === 0) {
    const { body, headers } = earlyAnswer(status, message, wasPageRequest(err.rawPacket) ? { siteTitle: siteTitleOf(this) } : undefined);
    const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`, ...headers.map(([n, v]) => `${n}: ${v}`)];
    head.push(`content-length: ${Buffer.byteLength(body)}`, "connection: close");
    socket.write(`${head.join("\r\n")}\r\n\r\n${body}`);
  }
  socket.destroy();
}

const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::(\d{1,5}))?$/;

/** Whether a Host (or trusted X-Forwarded-Host) value is a host[:port] a URL can be made of. */
export function isValidHost(host: string): boolean {
  const m = HOST.exec(host);
  return !!m && (m[1] === undefined || Number(m[1]) <= 65535);
}

/**
 * RFC 9112 §3.2: a malformed Host, or none on HTTP/1.1, is 400. (Node's own check answers a
 * bare 400 without our headers, so it is off and this hook does it.)
 */
export function registerHostCheck(app: FastifyInstance) {
  // A callback hook, not an async one: every request passes here, and a promise each is not free.
  app.addHook("onRequest", (request, reply, done) => {
    const host = request.host;
    if (host ? isValidHost(host) : request.raw.httpVersion !== "1.1") return done();
    request.log.info({ host }, "client error: bad host");
    sendEarlyError(request, reply, 400, serverMessages.badHost);
  });
}
