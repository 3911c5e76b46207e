import { DownOutlined, UserOutlined } from "@ant-design/icons";
import { App, Avatar, Dropdown, Layout, Menu, type MenuProps } from "antd";
import { useState } from "react";
import { Outlet, useLocation, useNavigate } from "react-router";
import { Logo } from "../components/nav/Logo";
import { ADMIN_MENU, ADMIN_MENU_GROUPS, adminMenuKey } from "../components/admin/admin-menu";
import { GuardGate } from "../guards/GuardGate";
import type { RouteHandle } from "../guards/types";
import { ADMIN_TOKEN_KEY } from "../session/keys";
import { useSession } from "../session/store";
import styles from "./admin.module.css";

/** The whole back office needs an admin login (spec section 4, 'admin'). */
export const handle: RouteHandle = { middleware: ["admin"] };

const SIDER_WIDTH = 200;
const SIDER_COLLAPSED_WIDTH = 64;

/** Admin layout: collapsible side menu (200px / 64px), header with the admin and logout. */
export default function AdminLayout() {
  return (
    <App>
      <GuardGate>
        <AdminFrame />
      </GuardGate>
    </App>
  );
}

function AdminFrame() {
  const [collapsed, setCollapsed] = useState(false);
  const { pathname } = useLocation();
  return (
    <Layout className={styles.frame}>
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        width={SIDER_WIDTH}
        collapsedWidth={SIDER_COLLAPSED_WIDTH}
        className={styles.sider}
        data-testid="admin-sider"
      >
        <div className={styles.brand}>
          <Logo size={28} />
          {collapsed ? null : <span>后台管理</span>}
        </div>
        <Menu
          theme="dark"
          mode="inline"
          items={ADMIN_MENU}
          selectedKeys={[adminMenuKey(pathname)]}
          defaultOpenKeys={ADMIN_MENU_GROUPS}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className={styles.header}>
          <AdminUser />
        </Layout.Header>
        <Layout.Content className={styles.content}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

function AdminUser() {
  const admin = useSession((s) => s.admin);
  const navigate = useNavigate();
  const onClick: MenuProps["onClick"] = ({ key }) => {
    if (key !== "logout") return;
    // The admin issue adds the server side (POST /pandaadmin/index/logout).
    window.localStorage.removeItem(ADMIN_TOKEN_KEY);
    useSession.getState().setAdmin(null);
    void navigate("/panda/login", { replace: true });
  };
  return (
    <Dropdown menu={{ items: [{ key: "logout", label: "退出登录" }], onClick }} trigger={["click"]}>
      <button type="button" className={styles.user} data-testid="admin-user">
        <Avatar size={28} icon={<UserOutlined />} />
        <span>{admin?.nickname || admin?.username}</span>
        <DownOutlined className={styles.caret} />
      </button>
    </Dropdown>
  );
}
