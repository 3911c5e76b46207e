import {
  AppstoreOutlined,
  BlockOutlined,
  CloudDownloadOutlined,
  ControlOutlined,
  DashboardOutlined,
  FileAddOutlined,
  FolderOutlined,
  SettingOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
} from "@ant-design/icons";
import type { MenuProps } from "antd";
import { Link } from "react-router";

const link = (to: string, label: string) => <Link to={to}>{label}</Link>;

/** Spec section 2, admin layout: the three menu groups. Keys are the pages' paths. */
export const ADMIN_MENU: NonNullable<MenuProps["items"]> = [
  {
    key: "system",
    label: "系统管理",
    icon: <SettingOutlined />,
    children: [
      { key: "/panda/", icon: <DashboardOutlined />, label: link("/panda/", "控制台") },
      { key: "/panda/block", icon: <BlockOutlined />, label: link("/panda/block", "区块管理") },
      { key: "/panda/settings", icon: <ControlOutlined />, label: link("/panda/settings", "站点设置") },
    ],
  },
  {
    key: "content",
    label: "内容管理",
    icon: <AppstoreOutlined />,
    children: [
      { key: "/panda/add", icon: <FileAddOutlined />, label: link("/panda/add", "添加套曲") },
      {
        key: "/panda/sutieList",
        icon: <UnorderedListOutlined />,
        label: link("/panda/sutieList", "套曲列表"),
      },
      {
        key: "/panda/sutieCategory",
        icon: <FolderOutlined />,
        label: link("/panda/sutieCategory", "套曲分类"),
      },
      {
        key: "/panda/collectData",
        icon: <CloudDownloadOutlined />,
        label: link("/panda/collectData", "采集数据"),
      },
    ],
  },
  {
    key: "users",
    label: "用户管理",
    icon: <TeamOutlined />,
    children: [
      {
        key: "/panda/userList",
        icon: <UserOutlined />,
        label: link("/panda/userList", "用户列表"),
      },
    ],
  },
];

export const ADMIN_MENU_GROUPS = ["system", "content", "users"];

/** Menu key for a path: /panda and /panda/ are the dashboard, /panda/edit/N sits under the list. */
export function adminMenuKey(pathname: string): string {
  if (pathname === "/panda" || pathname === "/panda/") return "/panda/";
  if (pathname.startsWith("/panda/edit/")) return "/panda/sutieList";
  return pathname.replace(/\/$/, "");
}
