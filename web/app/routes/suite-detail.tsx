import { data } from "react-router";
import { PageHeading } from "../components/layout/PageHeading";
import { RouteErrorBoundary } from "../components/errors/RouteErrorBoundary";
import type { RouteHandle } from "../guards/types";
import { pageMeta } from "../lib/site";
import type { Route } from "./+types/suite-detail";

/** Spec section 2: only /site/{id}.html and /sutie/{id}.html; any other shape is 页面不存在. */
export const DETAIL_FILE = /^(\d+)\.html$/;

export const handle: RouteHandle = { hidePlayer: true };

export function loader({ params }: Route.LoaderArgs) {
  const match = DETAIL_FILE.exec(params.file);
  if (!match) throw data("页面不存在", { status: 404 });
  return { id: Number(match[1]) };
}

export const meta = ({ error }: Route.MetaArgs) => pageMeta(error ? "页面不存在" : "套曲详情");

export default function SuiteDetail({ loaderData }: Route.ComponentProps) {
  return <PageHeading title="套曲详情">编号 {loaderData.id}</PageHeading>;
}

export const ErrorBoundary = RouteErrorBoundary;
