import { useRouteError } from "react-router";
import { ErrorPage, SafeErrorPage } from "../components/errors/ErrorPage";
import { describeHomeLoadError } from "../components/errors/error-text";
import { firstCharts } from "../components/charts/panel-charts";
import { HomeView } from "../components/home/HomeView";
import { appContext } from "../lib/app-context";
import { toRouteError } from "../lib/route-errors";
import { pageMeta } from "../lib/site";
import { canonicalLink, siteOf } from "../lib/site-settings";
import type { Route } from "./+types/home";

/**
 * The same data as GET /api/forntend/index, through the in-process home service; of the charts
 * only the one shown first (the panel fetches the others when chosen).
 */
export async function loader({ context }: Route.LoaderArgs) {
  try {
    const home = await context.get(appContext).services.home.page();
    return { ...home, data: { ...home.data, side: firstCharts(home.data.side) } };
  } catch (err) {
    throw toRouteError(err, "服务器内部错误", context.get(appContext).logError);
  }
}

export const meta: (args: Route.MetaArgs) => Route.MetaDescriptors = ({ loaderData: loaded, matches }) => {
  if (!loaded) return pageMeta(undefined, undefined, siteOf(matches));
  return [
    { title: loaded.title || siteOf(matches).title },
    { name: "keywords", content: loaded.keywords },
    { name: "description", content: loaded.description },
    canonicalLink(matches, "/"),
  ];
};

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomeView data={loaderData.data} />;
}

/** Spec section 8, home load: 404/403/500 texts, the server's msg, or the network text. */
export function ErrorBoundary() {
  return <SafeErrorPage error={useRouteError()} render={(props) => <ErrorPage {...props} describe={describeHomeLoadError} />} />;
}
