import { DEFAULT_SITE_SETTINGS, type SiteSettings } from "@contracts/site";
import { useRouteLoaderData } from "react-router";

/** The public layout's route id: its loader carries the site settings (ADR 0030). */
export const DEFAULT_LAYOUT_ID = "layouts/default";

interface LayoutData {
  site?: SiteSettings;
  publicUrl?: string;
}

type Matches = readonly ({ id: string; loaderData?: unknown } | undefined)[] | undefined;

const layoutData = (matches: Matches) =>
  matches?.find((m) => m?.id === DEFAULT_LAYOUT_ID)?.loaderData as LayoutData | undefined;

/** The site settings from a route's meta `matches` (the defaults outside the public layout). */
export function siteOf(matches: Matches): SiteSettings {
  return layoutData(matches)?.site ?? DEFAULT_SITE_SETTINGS;
}

/** A page's canonical link: absolute, as search engines (and Lighthouse's SEO audit) want it. */
export function canonicalLink(matches: Matches, path: string) {
  const base = layoutData(matches)?.publicUrl ?? "";
  return { tagName: "link", rel: "canonical", href: /^https?:\/\//.test(path) ? path : base + path } as const;
}

/** The site settings in a component under the public layout. */
export function useSiteSettings(): SiteSettings {
  return useRouteLoaderData<LayoutData>(DEFAULT_LAYOUT_ID)?.site ?? DEFAULT_SITE_SETTINGS;
}
