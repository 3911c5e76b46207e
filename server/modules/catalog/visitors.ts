import { randomToken } from "../../lib/random-token.js";

/** Anonymous visitor id (for once-per-day view counting and, later, play reports). */
export const VISITOR_COOKIE = "vid";
const VISITOR_ID = /^[A-Za-z0-9_-]{16,64}$/;
const ONE_YEAR_S = 365 * 24 * 3600;

export interface Visitor {
  id: string;
  /** A Set-Cookie header value when the visitor is new (or sent a malformed id). */
  setCookie?: string;
}

/** Reads the visitor id from a Cookie header, or makes a new one with the cookie that keeps it. */
export function visitorFromCookieHeader(cookieHeader: string | null | undefined, secure = false): Visitor {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    const value = rest.join("=");
    if (name === VISITOR_COOKIE && VISITOR_ID.test(value)) return { id: value };
  }
  const id = randomToken(16);
  const attrs = [`${VISITOR_COOKIE}=${id}`, "Path=/", `Max-Age=${ONE_YEAR_S}`, "HttpOnly", "SameSite=Lax"];
  if (secure) attrs.push("Secure");
  return { id, setCookie: attrs.join("; ") };
}
