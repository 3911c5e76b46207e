import { data } from "react-router";
import { serverMessages } from "@contracts/messages";
import { isDatabaseUnavailable } from "@contracts/service-unavailable";

/**
 * A service error as the route's error response: a 4xx AppError (status + the spec's Chinese
 * message) keeps both; the database out of reach is a 503 服务暂时不可用 (ADR 0040: try again
 * shortly, as the API says); anything else is a 500 with the page's generic text, never
 * internals, and is logged (`logError`: the load context's, with the request id and the stack).
 */
export function toRouteError(err: unknown, serverErrorMessage: string, logError: (err: unknown) => void) {
  const status = (err as { status?: unknown }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return data((err as Error).message, { status });
  }
  if (isDatabaseUnavailable(err)) return data(serverMessages.serviceUnavailable, { status: 503 });
  logError(err);
  return data(serverErrorMessage, { status: 500 });
}
