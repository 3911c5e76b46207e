import { suiteMessages } from "@contracts/suite";
import { data } from "react-router";
import { RouteErrorBoundary } from "../components/errors/RouteErrorBoundary";
import { SuiteDetailView } from "../components/suite/SuiteDetailView";
import type { RouteHandle } from "../guards/types";
import { appContext } from "../lib/app-context";
import { toRouteError } from "../lib/route-errors";
import { pageMeta } from "../lib/site";
import { canonicalLink, siteOf } from "../lib/site-settings";
import type { Route } from "./+types/suite-detail";

/** Spec section 2: only /site/{id}.html and /sutie/{id}.html; any other shape is 页面不存在. */
export const DETAIL_FILE = /^([1-9]\d{0,9})\.html$/;

export const handle: RouteHandle = { hidePlayer: true };

export async function loader({ params, context }: Route.LoaderArgs) {
  const match = DETAIL_FILE.exec(params.file);
  const id = match ? Number(match[1]) : NaN;
  if (!(id <= 2_147_483_647)) throw data(suiteMessages.badPath, { status: 404 });
  const { services, visitorId, logError } = context.get(appContext);
  try {
    // A new visitor's cookie goes out on the response (the load context sets it): the page's
    // view beacon carries it (ADR 0053); the loader itself counts nothing.
    await visitorId();
    return { info: await services.suites.musicInfo(id) };
  } catch (err) {
    throw toRouteError(err, suiteMessages.serverError, logError);
  }
}

export const meta: (args: Route.MetaArgs) => Route.MetaDescriptors = ({ loaderData: loaded, error, matches }) => {
  const site = siteOf(matches);
  if (error || !loaded) return pageMeta(error ? "页面不存在" : undefined, undefined, site);
  const { info } = loaded;
  return [
    ...pageMeta(info.title, `${info.title}，${info.artist}，${info.channel.name}DJ舞曲在线试听 - ${info.website.name}`, site),
    canonicalLink(matches, info.url),
  ];
};

export default function SuiteDetail({ loaderData }: Route.ComponentProps) {
  return <SuiteDetailView info={loaderData.info} />;
}

export const ErrorBoundary = RouteErrorBoundary;
