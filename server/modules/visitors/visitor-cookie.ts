import { timingSafeEqual } from "node:crypto";
import { boundedMemo } from "../../lib/bounded-memo.js";
import { hmacSha256 } from "../../lib/hmac-sha256.js";
import { randomToken } from "../../lib/random-token.js";

/**
 * The anonymous visitor id (views once per visitor per day, play reports), in the `vid` cookie
 * as `<id>.<signature>`: the id is random and made by us, the signature an HMAC-SHA256 of it
 * (first 128 bits) under the database's visitor secret. A client cannot choose its id: a
 * missing, malformed, unsigned or forged value counts as no id at all.
 */
export const VISITOR_COOKIE = "vid";
const ID_BYTES = 16;
const SIGNATURE_BYTES = 16;
const base64Length = (bytes: number) => Math.ceil((bytes * 4) / 3);
const B64 = (bytes: number) => `[A-Za-z0-9_-]{${base64Length(bytes)}}`;
const SIGNED_LENGTH = base64Length(ID_BYTES) + 1 + base64Length(SIGNATURE_BYTES);
const SIGNED_VALUE = new RegExp(`^(${B64(ID_BYTES)})\\.(${B64(SIGNATURE_BYTES)})$`);
const ONE_YEAR_S = 365 * 24 * 3600;
/** The Set-Cookie attributes after the value (made once: a new visitor gets one per answer). */
const ATTRIBUTES = `; Path=/; Max-Age=${ONE_YEAR_S}; HttpOnly; SameSite=Lax`;
const SECURE_ATTRIBUTES = `${ATTRIBUTES}; Secure`;
/** Cookie values whose check is remembered (emptied when full). */
const CHECKED_MAX = 10_000;

export interface VisitorCookies {
  /** The visitor id a `vid` cookie value carries, or null when it is not one we signed. */
  verify(value: string | undefined): string | null;
  /** A new visitor id and the Set-Cookie header value that keeps it (`Secure` over HTTPS). */
  issue(secure: boolean): { id: string; setCookie: string };
  /** The cookie value for an id (tests, and whoever needs to hand a visitor its cookie). */
  value(id: string): string;
}

export function visitorCookies(secret: Buffer): VisitorCookies {
  const hmac = hmacSha256(secret);
  const signature = (id: string) => hmac(id).subarray(0, SIGNATURE_BYTES);
  const value = (id: string) => `${id}.${signature(id).toString("base64url")}`;
  const check = (cookieValue: string): string | null => {
    const m = SIGNED_VALUE.exec(cookieValue);
    if (!m) return null;
    const given = Buffer.from(m[2], "base64url");
    return given.length === SIGNATURE_BYTES && timingSafeEqual(given, signature(m[1])) ? m[1] : null;
  };
  // A returning visitor sends the same value with every request: its check (two hashes) is
  // remembered, as is a forged value's refusal (the secret never changes while the process runs).
  const checked = boundedMemo(CHECKED_MAX, check);
  return {
    verify(cookieValue) {
      // Only values of a signed value's length are remembered: a long forged one costs no memory.
      if (cookieValue === undefined || cookieValue.length !== SIGNED_LENGTH) return null;
      return checked(cookieValue);
    },
    issue(secure) {
      const id = randomToken(ID_BYTES);
      return { id, setCookie: `${VISITOR_COOKIE}=${value(id)}${secure ? SECURE_ATTRIBUTES : ATTRIBUTES}` };
    },
    value,
  };
}
