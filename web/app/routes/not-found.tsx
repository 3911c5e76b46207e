import { data } from "react-router";
import { RouteErrorBoundary } from "../components/errors/RouteErrorBoundary";
import { pageMeta } from "../lib/site";

/** Catch-all: any unknown address answers HTTP 404 with the error page. */
export function loader() {
  throw data(null, { status: 404 });
}

export const meta = () => pageMeta("页面未找到");

export default function NotFound() {
  return null;
}

export const ErrorBoundary = RouteErrorBoundary;
