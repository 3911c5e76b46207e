import { DEFAULT_SITE_SETTINGS, type SiteSettings } from "@contracts/site";
import { useRouteLoaderData } from "react-router";

/** The public layout's route id: its loader carries the site settings (ADR 0030). */
export const DEFAULT_LAYOUT_ID = "layouts/default";

interface LayoutData {
  site?: SiteSettings;
}

/** The site settings from a route's meta `matches` (the defaults outside the public layout). */
export function siteOf(matches: readonly ({ id: string; loaderData?: unknown } | undefined)[] | undefined): SiteSettings {
  const layout = matches?.find((m) => m?.id === DEFAULT_LAYOUT_ID);
  return (layout?.loaderData as LayoutData | undefined)?.site ?? DEFAULT_SITE_SETTINGS;
}

/** The site settings in a component under the public layout. */
export function useSiteSettings(): SiteSettings {
  return useRouteLoaderData<LayoutData>(DEFAULT_LAYOUT_ID)?.site ?? DEFAULT_SITE_SETTINGS;
}
