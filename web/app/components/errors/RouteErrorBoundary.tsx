import { useRouteError } from "react-router";
import { SafeErrorPage } from "./ErrorPage";

/** ErrorBoundary export for route modules: the error page inside the current layout. */
export function RouteErrorBoundary() {
  return <SafeErrorPage error={useRouteError()} />;
}
