import type { MetaArgs } from "react-router";
import { data } from "react-router";
import { RouteErrorBoundary } from "../components/errors/RouteErrorBoundary";
import { pageMeta } from "../lib/site";
import { siteOf } from "../lib/site-settings";

/** Catch-all: any unknown address answers HTTP 404 with the error page. */
export function loader() {
  throw data(null, { status: 404 });
}

export const meta = ({ matches }: MetaArgs) => pageMeta("页面未找到", undefined, siteOf(matches));

export default function NotFound() {
  return null;
}

export const ErrorBoundary = RouteErrorBoundary;
