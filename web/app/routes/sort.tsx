import { categoryMessages, getSortQuerySchema } from "@contracts/category";
import { data, redirect } from "react-router";
import { CategoryView } from "../components/category/CategoryView";
import { firstCharts } from "../components/charts/panel-charts";
import { RouteErrorBoundary } from "../components/errors/RouteErrorBoundary";
import { appContext } from "../lib/app-context";
import { toRouteError } from "../lib/route-errors";
import { pageMeta } from "../lib/site";
import { canonicalLink, siteOf } from "../lib/site-settings";
import type { Route } from "./+types/sort";

/**
 * Spec section 2: a trailing .html is stripped. We redirect (301) to the bare address so each
 * category has one canonical URL: /sort/club.html -> /sort/club.
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  if (params.diyname.endsWith(".html")) {
    const bare = params.diyname.slice(0, -".html".length);
    throw redirect(`/sort/${encodeURIComponent(bare)}${url.search}`, 301);
  }
  const query = getSortQuerySchema.safeParse({
    diyname: params.diyname,
    page: url.searchParams.get("page") ?? undefined,
    filter: url.searchParams.get("filter") ?? undefined,
  });
  if (!query.success) throw data(query.error.issues[0]?.message ?? categoryMessages.missing, { status: 400 });
  try {
    const page = await context.get(appContext).services.categories.page(query.data);
    // Of the charts only the one shown first: the panel fetches the others when chosen.
    return { page: { ...page, side: firstCharts(page.side) }, filter: query.data.filter };
  } catch (err) {
    throw toRouteError(err, "服务器错误", context.get(appContext).logError);
  }
}

export const meta: (args: Route.MetaArgs) => Route.MetaDescriptors = ({ loaderData: loaded, error, matches }) => {
  // A literal, not categoryMessages: importing contracts' schemas would ship zod to the browser.
  if (error || !loaded) return pageMeta("分类不存在", undefined, siteOf(matches));
  const { page } = loaded;
  return [
    { title: page.title },
    { name: "keywords", content: page.keywords },
    { name: "description", content: page.description },
    canonicalLink(matches, page.cidurl),
  ];
};

export default function Sort({ loaderData }: Route.ComponentProps) {
  return <CategoryView page={loaderData.page} filter={loaderData.filter} />;
}

export const ErrorBoundary = RouteErrorBoundary;
