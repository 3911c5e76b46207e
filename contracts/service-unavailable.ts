/**
 * Whether an error means "the database cannot be reached" rather than "this query is wrong"
 * (ADR 0040): the request answers 503 服务暂时不可用 and the next one may work. Shared by the
 * API's error handler and the pages' route errors (web/app/lib/route-errors.ts), which see the
 * same errors from the same services, so both answer the same way. Drizzle wraps
 * the driver's error (`cause`); Node's connect attempts to several addresses give an
 * AggregateError (`errors`).
 */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/** SQLSTATE: class 08 connection exception; 57P01-57P03 the server shutting down or starting. */
const SQLSTATE = /^(08|57P0[123])/;
/** node-postgres' own messages for a connection that broke, never came, or was cut mid-query. */
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Query read timeout|Client was closed and is not queryable/;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && (NETWORK_CODES.has(e.code) || SQLSTATE.test(e.code))) return true;
  if (typeof e.message === "string" && DRIVER_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
