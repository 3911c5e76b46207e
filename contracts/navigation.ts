import { z } from "zod";

/** Navigation item of spec section 3: `GET /api/forntend/gettopnav` answers a list of these. */
export interface NavItem {
  label: string;
  to: string;
  icon?: string;
  items?: NavItem[];
}

export const navItemSchema: z.ZodType<NavItem> = z.lazy(() =>
  z.object({
    label: z.string(),
    to: z.string(),
    icon: z.string().optional(),
    items: z.array(navItemSchema).optional(),
  }),
);

export const HOME_NAV_ITEM: NavItem = { label: "首页", to: "/" };
