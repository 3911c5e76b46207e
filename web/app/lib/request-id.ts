import { createContext, useContext, useSyncExternalStore } from "react";

/**
 * The id of the request a server-rendered 5xx page answers (ADR 0044: every 5xx body carries
 * it, so a visitor's report can be found in the log). entry.server provides it for a 5xx
 * render only; while the page hydrates it is read back from the element that shows it, so the
 * browser renders the same text. A page failing in the browser has no server request: nothing.
 */
export const RequestIdContext = createContext<string | undefined>(undefined);

/** The attribute on the element that shows the id (read back while hydrating). */
export const REQUEST_ID_ATTRIBUTE = "data-request-id";

const never = () => () => {};
const fromPage = () =>
  typeof document === "undefined" ? undefined : (document.querySelector(`[${REQUEST_ID_ATTRIBUTE}]`)?.getAttribute(REQUEST_ID_ATTRIBUTE) ?? undefined);

export function useFailedRequestId(): string | undefined {
  const fromServer = useContext(RequestIdContext);
  return useSyncExternalStore(never, fromPage, () => fromServer ?? fromPage());
}
