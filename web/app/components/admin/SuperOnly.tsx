import { adminMessages } from "@contracts/admin-texts";
import { Result } from "antd";
import type { ReactNode } from "react";
import { useSession } from "../../session/store";

/**
 * A 超级管理员 screen: an editor who opens it (a typed address, an old link) sees
 * 需要超级管理员权限 instead of a page whose every call would be refused. The admin layout
 * wraps every path of SUPER_ONLY_PATHS (admin-menu.tsx) in it.
 */
export function SuperOnly({ children }: { children: ReactNode }) {
  const role = useSession((s) => s.admin?.role);
  if (role !== "super") return <Result status="403" title="403" subTitle={adminMessages.superOnly} data-testid="super-only" />;
  return <>{children}</>;
}
