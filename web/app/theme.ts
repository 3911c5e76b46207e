import type { ThemeConfig } from "antd";

/** Chinese system fonts first, then Noto CJK (Linux), so Chinese never falls back to tofu. */
export const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', " +
  "'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'Helvetica Neue', Arial, sans-serif";

/** Night-club palette: near-black chrome around light, readable content. */
export const colors = {
  primary: "#7c3aed",
  accent: "#ec4899",
  chrome: "#15121f",
  chromeBorder: "#2a2440",
  chromeText: "rgba(255,255,255,0.85)",
  chromeMuted: "rgba(255,255,255,0.55)",
  page: "#f4f3f8",
};

export const theme: ThemeConfig = {
  token: {
    colorPrimary: colors.primary,
    colorLink: colors.primary,
    borderRadius: 8,
    fontFamily: FONT_FAMILY,
  },
  components: {
    Layout: {
      triggerBg: "#1d1930",
      headerBg: colors.chrome,
      siderBg: colors.chrome,
      bodyBg: colors.page,
      headerPadding: "0 24px",
    },
    Menu: {
      darkItemBg: colors.chrome,
      darkSubMenuItemBg: "#100d18",
      darkPopupBg: "#1d1930",
      darkItemSelectedBg: colors.primary,
    },
  },
};
