import { redirect } from "react-router";
import { PageHeading } from "../components/layout/PageHeading";
import { pageMeta } from "../lib/site";
import type { Route } from "./+types/sort";

/**
 * Spec section 2: a trailing .html is stripped. We redirect (301) to the bare address so each
 * category has one canonical URL: /sort/club.html -> /sort/club.
 */
export function loader({ params, request }: Route.LoaderArgs) {
  if (params.diyname.endsWith(".html")) {
    const { search } = new URL(request.url);
    const bare = params.diyname.slice(0, -".html".length);
    throw redirect(`/sort/${encodeURIComponent(bare)}${search}`, 301);
  }
  return { diyname: params.diyname };
}

export const meta = () => pageMeta("分类");

export default function Sort({ loaderData }: Route.ComponentProps) {
  return <PageHeading title="分类">{loaderData.diyname}</PageHeading>;
}
