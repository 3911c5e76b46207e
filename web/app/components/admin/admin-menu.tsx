import {
  ApiOutlined,
  AppstoreAddOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BlockOutlined,
  CloudDownloadOutlined,
  CommentOutlined,
  ControlOutlined,
  DashboardOutlined,
  FileAddOutlined,
  FolderOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { pageAccess } from "@contracts/access";
import type { AdminRoleCode } from "@contracts/admin-texts";
import type { MenuProps } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";

const link = (to: string, label: string) => <Link to={to}>{label}</Link>;

interface AdminMenuEntry {
  key: string;
  icon: ReactNode;
  label: string;
}

interface AdminMenuGroup {
  key: string;
  label: string;
  icon: ReactNode;
  children: AdminMenuEntry[];
}

/**
 * Spec section 2, admin layout: the three menu groups. Keys are the pages' paths; who sees an
 * entry follows its page's level in contracts/access.ts (an editor sees no 超级管理员 page).
 */
const GROUPS: AdminMenuGroup[] = [
  {
    key: "system",
    label: "系统管理",
    icon: <SettingOutlined />,
    children: [
      { key: "/panda/", icon: <DashboardOutlined />, label: "控制台" },
      { key: "/panda/block", icon: <BlockOutlined />, label: "区块管理" },
      { key: "/panda/settings", icon: <ControlOutlined />, label: "站点设置" },
      { key: "/panda/sources", icon: <ApiOutlined />, label: "来源管理" },
      { key: "/panda/plugins", icon: <AppstoreAddOutlined />, label: "来源插件" },
      { key: "/panda/admins", icon: <SafetyCertificateOutlined />, label: "管理员" },
      { key: "/panda/audit", icon: <AuditOutlined />, label: "审计日志" },
    ],
  },
  {
    key: "content",
    label: "内容管理",
    icon: <AppstoreOutlined />,
    children: [
      { key: "/panda/add", icon: <FileAddOutlined />, label: "添加套曲" },
      { key: "/panda/sutieList", icon: <UnorderedListOutlined />, label: "套曲列表" },
      { key: "/panda/sutieCategory", icon: <FolderOutlined />, label: "套曲分类" },
      { key: "/panda/collectData", icon: <CloudDownloadOutlined />, label: "采集数据" },
      { key: "/panda/comments", icon: <CommentOutlined />, label: "评论管理" },
    ],
  },
  {
    key: "users",
    label: "用户管理",
    icon: <TeamOutlined />,
    children: [{ key: "/panda/userList", icon: <UserOutlined />, label: "用户列表" }],
  },
];

/** The menu a role sees: an editor gets no 超级管理员 entries (and no group left empty). */
export function adminMenuFor(role: AdminRoleCode | null | undefined): NonNullable<MenuProps["items"]> {
  return GROUPS.map((group) => ({
    key: group.key,
    label: group.label,
    icon: group.icon,
    children: group.children
      .filter((entry) => role === "super" || !isSuperOnly(entry.key))
      .map((entry) => ({ key: entry.key, icon: entry.icon, label: link(entry.key, entry.label) })),
  })).filter((group) => group.children.length > 0);
}

/** Every entry, as 超级管理员 see them. */
export const ADMIN_MENU = adminMenuFor("super");

export const ADMIN_MENU_GROUPS = GROUPS.map((g) => g.key);

/** A screen only 超级管理员 may open (its page shows 需要超级管理员权限 to an editor). */
export const isSuperOnly = (pathname: string) => pageAccess(pathname) === "super";

/** Menu key for a path: /panda and /panda/ are the dashboard, /panda/edit/N sits under the list. */
export function adminMenuKey(pathname: string): string {
  if (pathname === "/panda" || pathname === "/panda/") return "/panda/";
  if (pathname.startsWith("/panda/edit/")) return "/panda/sutieList";
  return pathname.replace(/\/$/, "");
}

/** The icons of the groups a role sees, as the collapsed menu shows them (the server's first paint, AdminShell). */
export const adminMenuGroupIcons = (role: AdminRoleCode | null | undefined) =>
  GROUPS.filter((g) => role === "super" || g.children.some((e) => !isSuperOnly(e.key))).map((g) => ({ key: g.key, icon: g.icon }));
