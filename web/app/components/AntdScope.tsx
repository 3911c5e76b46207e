import { ConfigProvider } from "antd";
import zhCN from "antd/es/locale/zh_CN";
import type { ReactNode } from "react";
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
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={BUTTON_CONFIG}>
      {children}
    </ConfigProvider>
  );
}
