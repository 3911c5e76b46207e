import { message } from "antd";
import type { MessageInstance } from "antd/es/message/interface";
import { createContext, useContext, type ReactNode } from "react";

const MessageContext = createContext<MessageInstance | null>(null);

/**
 * Theme-aware toasts (message.success('退出成功')...) for the public layouts. antd's <App>
 * would also bundle Modal and Notification into every public page (about 21 KB gzip of the
 * 250 KB budget); public pages only need messages. The admin layout uses antd's <App>.
 */
export function MessageProvider({ children }: { children: ReactNode }) {
  const [api, holder] = message.useMessage();
  return (
    <MessageContext.Provider value={api}>
      {holder}
      {children}
    </MessageContext.Provider>
  );
}

export function useSiteMessage(): MessageInstance {
  const api = useContext(MessageContext);
  if (!api) throw new Error("useSiteMessage needs <MessageProvider> (default layout)");
  return api;
}
