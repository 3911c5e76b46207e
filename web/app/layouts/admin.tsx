import { DownOutlined, UserOutlined } from "@ant-design/icons";
import { App, Avatar, Dropdown, Layout, Menu, type MenuProps } from "antd";
import { useState } from "react";
import { ADMIN_ROLE_NAMES, adminMessages } from "@contracts/admin-texts";
import { authMessages } from "@contracts/auth";
import { Outlet, useLocation, useNavigate } from "react-router";
import { DEFAULT_SITE_SETTINGS } from "@contracts/site";
import { AntdScope } from "../components/AntdScope";
import { Logo } from "../components/nav/Logo";
import { ADMIN_MENU_GROUPS, adminMenuFor, adminMenuKey, isSuperOnly } from "../components/admin/admin-menu";
import { SuperOnly } from "../components/admin/SuperOnly";
import { ChangePasswordDialog } from "../components/admin/ChangePasswordDialog";
import { setAdminFlash } from "../components/admin/admin-flash";
import { adminCall } from "../lib/admin-api";
import { GuardGate } from "../guards/GuardGate";
import { appContext } from "../lib/app-context";
import { useSiteSettings } from "../lib/site-settings";
import type { Route } from "./+types/admin";
import { ADMIN_TOKEN_KEY } from "../session/keys";
import { useSession } from "../session/store";
import styles from "./admin.module.css";

const SIDER_WIDTH = 200;
const SIDER_COLLAPSED_WIDTH = 64;

/**
 * The site settings, for the header and the screens' titles (ADR 0066). Read again on each
 * navigation in the back office (a cached answer), so a saved title shows on the next screen.
 * The back office still opens when they cannot be read: its screens say what failed.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const site = await context.get(appContext).services.siteSettings.get().catch(() => DEFAULT_SITE_SETTINGS);
  return { site };
}

/** Admin layout: collapsible side menu (200px / 64px), header with the admin and logout. */
export default function AdminLayout() {
  return (
    <AntdScope>
      <App>
        <GuardGate>
          <AdminFrame />
        </GuardGate>
      </App>
    </AntdScope>
  );
}

function AdminFrame() {
  const [collapsed, setCollapsed] = useState(false);
  const { pathname } = useLocation();
  const role = useSession((s) => s.admin?.role);
  // The first-start account sees only the change-password dialog (AdminUser): no screen whose calls would all be refused.
  const mustChange = useSession((s) => s.admin?.mustChangePassword === true);
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
          items={adminMenuFor(role)}
          selectedKeys={[adminMenuKey(pathname)]}
          defaultOpenKeys={ADMIN_MENU_GROUPS}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className={styles.header}>
          <SiteTitle />
          <AdminUser />
        </Layout.Header>
        <Layout.Content className={styles.content}>
          {/* A 超级管理员 screen opened by an editor: the refusal, not a page of refused calls. */}
          {mustChange ? null : isSuperOnly(pathname) ? (
            <SuperOnly>
              <Outlet />
            </SuperOnly>
          ) : (
            <Outlet />
          )}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

/** The site's title (站点设置) at the header's left, linking to the public site. */
function SiteTitle() {
  const { title } = useSiteSettings();
  return (
    <a href="/" className={styles.siteTitle} target="_blank" rel="noreferrer" title="打开前台首页">
      {title}
    </a>
  );
}

function AdminUser() {
  const admin = useSession((s) => s.admin);
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [passwordOpen, setPasswordOpen] = useState(false);
  // The first-start account must change its password before anything else (issue 25).
  const mustChange = admin?.mustChangePassword === true;
  const logout = async () => {
    try {
      // Ends this admin session on the server (spec section 7); a dead session is "logged out" too.
      await adminCall<null>("POST", "/pandaadmin/index/logout");
    } catch {
      void message.error(authMessages.logoutFailed);
      return;
    }
    // The layout (and its messages) goes away: the login page says 退出成功.
    setAdminFlash(adminMessages.logoutOk);
    window.localStorage.removeItem(ADMIN_TOKEN_KEY);
    useSession.getState().setAdmin(null);
    void navigate("/panda/login", { replace: true });
  };
  const onClick: MenuProps["onClick"] = ({ key }) => {
    if (key === "password") setPasswordOpen(true);
    if (key === "logout") void logout();
  };
  const items = [
    { key: "password", label: "修改密码" },
    { key: "logout", label: "退出登录" },
  ];
  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={["click"]}>
        <button type="button" className={styles.user} data-testid="admin-user">
          <Avatar size={28} icon={<UserOutlined />} />
          <span>{admin?.nickname || admin?.username}</span>
          {admin?.role ? <span className={styles.role}>{ADMIN_ROLE_NAMES[admin.role]}</span> : null}
          <DownOutlined className={styles.caret} />
        </button>
      </Dropdown>
      <ChangePasswordDialog
        open={passwordOpen || mustChange}
        forced={mustChange}
        onClose={() => setPasswordOpen(false)}
        onChanged={() => {
          const now = useSession.getState().admin;
          if (now) useSession.getState().setAdmin({ ...now, mustChangePassword: false });
        }}
      />
    </>
  );
}
