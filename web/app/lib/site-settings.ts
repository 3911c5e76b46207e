import { DEFAULT_SITE_SETTINGS, type SiteSettings } from "@contracts/site";
import { useRouteLoaderData } from "react-router";

/** The public layout's route id: its loader carries the site settings (ADR 0030). */
export const DEFAULT_LAYOUT_ID = "layouts/default";
/** The back office's layout: its loader carries them too (ADR 0066). */
export const ADMIN_LAYOUT_ID = "layouts/admin";
const SETTINGS_LAYOUTS = [DEFAULT_LAYOUT_ID, ADMIN_LAYOUT_ID];

interface LayoutData {
  site?: SiteSettings;
  publicUrl?: string;
}

type Matches = readonly ({ id: string; loaderData?: unknown } | undefined)[] | undefined;

const layoutData = (matches: Matches) =>
  matches?.find((m) => m !== undefined && SETTINGS_LAYOUTS.includes(m.id))?.loaderData as LayoutData | undefined;

/** The site settings from a route's meta `matches` (the defaults outside the public and admin layouts). */
export function siteOf(matches: Matches): SiteSettings {
  return layoutData(matches)?.site ?? DEFAULT_SITE_SETTINGS;
}

/** A page's canonical link: absolute, as search engines (and Lighthouse's SEO audit) want it. */
export function canonicalLink(matches: Matches, path: string) {
  const base = layoutData(matches)?.publicUrl ?? "";
  return { tagName: "link", rel: "canonical", href: /^https?:\/\//.test(path) ? path : base + path } as const;
}

/** The site settings in a component under the public or the admin layout. */
export function useSiteSettings(): SiteSettings {
  const publicData = useRouteLoaderData<LayoutData>(DEFAULT_LAYOUT_ID);
  const adminData = useRouteLoaderData<LayoutData>(ADMIN_LAYOUT_ID);
  return publicData?.site ?? adminData?.site ?? DEFAULT_SITE_SETTINGS;
}
