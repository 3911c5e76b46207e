import { createCache, extractStyle, StyleProvider } from "@ant-design/cssinjs";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { type AppContext, appContext } from "./lib/app-context";
import { NonceContext } from "./lib/nonce";
import { RequestIdContext } from "./lib/request-id";
import { DocumentFinisher } from "./lib/finish-document";

/** The server puts its context under the build's own key (server/web/shared.ts). */
export { appContext };

export const streamTimeout = 5_000;

/**
 * Errors React Router caught that no loader turned into a route error (a layout loader that
 * threw, a render failure): logged through the request's logger (request id, stack). The page
 * shows the error page's generic text, never the error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // An address no route matches (a path whose characters the splat route's pattern does not take,
  // such as U+2028) is the 404 page, not a failure: its status is in the request's log line.
  if (isRouteErrorResponse(error) && error.status === 404) return;
  // React Router wraps some internal errors in an error response: log what is inside.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  logError(context as RouterContextProvider | undefined, inner ?? error);
};

function logError(context: RouterContextProvider | undefined, error: unknown) {
  let app: AppContext | undefined;
  try {
    app = context?.get(appContext);
  } catch {
    // No app context (a request the server did not make): the console is all there is.
  }
  if (typeof app?.logError === "function") app.logError(error);
  else console.error(error);
}

/**
 * Renders the whole document before sending it (onAllReady, for people and bots alike):
 * only then does the antd style cache hold every style the page uses, and those styles are
 * inlined into <head> so nothing flashes unstyled. DocumentFinisher also makes the scripts
 * start after the first paint.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(appContext).cspNonce || undefined;
  // A 5xx page shows its request id (ADR 0044); no other page carries anything per request.
  const requestId = responseStatusCode >= 500 ? loadContext.get(appContext).requestId || undefined : undefined;
  const cache = createCache();

  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RequestIdContext.Provider value={requestId}>
          <StyleProvider cache={cache}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </StyleProvider>
        </RequestIdContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          const body = new DocumentFinisher(() => extractStyle(cache));
          body.once("end", () => clearTimeout(timer));
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          // A failure inside a Suspense boundary (e.g. the error page itself) still renders
          // its fallback; the response must not claim success.
          status = 500;
          logError(loadContext, error);
        },
      },
    );
  });
}
