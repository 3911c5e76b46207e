import { ConfigProvider } from "antd";
import zhCN from "antd/es/locale/zh_CN";
import { useMemo, type ReactNode } from "react";
import { useMediaQuery } from "../lib/use-media-query";
import { theme } from "../theme";

/** Button labels stay as written (antd would space out two-character ones: "登 录"). */
const BUTTON_CONFIG = { autoInsertSpace: false };

/**
 * antd's theme and Chinese texts, around the parts of the site that use antd: the back office,
 * the user pages, the forgot-password page and the public pages' on-demand parts (dialogs, user
 * menu, toasts). It is not at the root: the public pages' first view renders no antd component,
 * and a root ConfigProvider put antd's style engine (~55 KB gzip) in every page's first load.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  // Visitors who asked their system for less motion get dialogs, menus and toasts without
  // antd's zoom, slide and fade (WCAG 2.3.3).
  const reducedMotion = useMediaQuery("(prefers-reduced-motion: reduce)");
  const scopeTheme = useMemo(() => (reducedMotion ? { ...theme, token: { ...theme.token, motion: false } } : theme), [reducedMotion]);
  return (
    <ConfigProvider locale={zhCN} theme={scopeTheme} button={BUTTON_CONFIG}>
      {children}
    </ConfigProvider>
  );
}
