import { DownOutlined, MenuOutlined, UserOutlined } from "@ant-design/icons";
import { App, Avatar, Button, Drawer, Dropdown, Grid, Layout, Menu, type MenuProps } from "antd";
import { useEffect, useState } from "react";
import { ADMIN_ROLE_NAMES, adminMessages } from "@contracts/admin-texts";
import { authMessages } from "@contracts/auth";
import { Outlet, useLoaderData, useLocation, useNavigate } from "react-router";
import { DEFAULT_SITE_SETTINGS } from "@contracts/site";
import { AntdScope } from "../components/AntdScope";
import { Logo } from "../components/nav/Logo";
import { ADMIN_MENU_GROUPS, adminMenuFor, adminMenuKey, isSuperOnly } from "../components/admin/admin-menu";
import { SuperOnly } from "../components/admin/SuperOnly";
import { ChangePasswordDialog } from "../components/admin/ChangePasswordDialog";
import { AdminContentSkeleton, AdminUserPlaceholder, EarlyMiniMenu } from "../components/admin/AdminShell";
import { setAdminFlash } from "../components/admin/admin-flash";
import { adminCall, adminCallsAnswered } from "../lib/admin-api";
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
 * The back office still opens when they cannot be read: its screens say what failed. And the
 * role of the admin the back office's cookie names (ADR 0078), so that the server draws a
 * 超级管理员's menu whole; null for anyone else (the menu every admin sees).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const [site, role] = await Promise.all([app.services.siteSettings.get().catch(() => DEFAULT_SITE_SETTINGS), app.adminRole().catch(() => null)]);
  return { site, role };
}

/** The page now depends on who asks (its menu): kept by no cache, the browser's included. */
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

/**
 * Admin layout: side menu of 200 px, collapsed to 64 px (icons) under 1200 px and a drawer
 * opened from the header under 768 px; header with the admin and logout. The frame is drawn by
 * the server, the first screen as a skeleton: the login check (GuardGate) runs in the browser
 * and only holds back the page itself (issue 25, ADR 0064).
 */
export default function AdminLayout() {
  return (
    <AntdScope>
      <App>
        <AdminFrame />
      </App>
    </AntdScope>
  );
}

function AdminFrame() {
  const { pathname } = useLocation();
  // The login check's answer once it is in; until then the role the server drew the page for.
  const checked = useSession((s) => s.admin);
  const rendered = useLoaderData<typeof loader>().role;
  const role = checked ? checked.role : rendered;
  // The first-start account sees only the change-password dialog (AdminUser): no screen whose calls would all be refused.
  const mustChange = useSession((s) => s.admin?.mustChangePassword === true);
  // Empty on the server and at hydration; antd fills it in once it has measured the window.
  const screens = Grid.useBreakpoint();
  const measured = screens.md !== undefined;
  const phone = screens.md === false;
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  useEffect(() => setDrawerOpen(false), [pathname]);

  // A new menu when it folds: antd would otherwise show the open groups of the wide menu as
  // popups, all at once, when the breakpoint folds it after hydration.
  const menu = (mini: boolean) => (
    <Menu
      key={mini ? "mini" : "full"}
      theme="dark"
      mode="inline"
      inlineCollapsed={mini}
      items={adminMenuFor(role)}
      selectedKeys={[adminMenuKey(pathname)]}
      defaultOpenKeys={mini ? [] : ADMIN_MENU_GROUPS}
    />
  );
  return (
    <Layout className={`${styles.frame} ${measured ? "" : styles.early}`} data-testid="admin-frame">
      {phone ? null : (
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          // antd measures the window: under xl (1200 px) the menu folds to its icons.
          breakpoint="xl"
          onBreakpoint={setCollapsed}
          width={SIDER_WIDTH}
          collapsedWidth={SIDER_COLLAPSED_WIDTH}
          className={styles.sider}
          data-testid="admin-sider"
        >
          <div className={styles.brand}>
            <Logo size={28} />
            {collapsed ? null : <span className={styles.brandText}>后台管理</span>}
          </div>
          {measured ? menu(collapsed) : <EarlyMiniMenu role={role} />}
          {measured ? null : <div className={styles.earlyFullMenu}>{menu(false)}</div>}
        </Layout.Sider>
      )}
      <Drawer
        placement="left"
        open={phone && drawerOpen}
        onClose={() => setDrawerOpen(false)}
        size={SIDER_WIDTH + 40}
        closable={false}
        rootClassName={styles.menuDrawer}
        title={null}
      >
        <div className={styles.brand}>
          <Logo size={28} />
          <span>后台管理</span>
        </div>
        {menu(false)}
      </Drawer>
      <Layout className={styles.main}>
        <Layout.Header className={styles.header}>
          <div className={styles.headerStart}>
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label="打开菜单"
              aria-expanded={drawerOpen}
              className={styles.menuButton}
              onClick={() => setDrawerOpen(true)}
              data-testid="admin-menu-button"
            />
            <SiteTitle />
          </div>
          <AdminUser />
        </Layout.Header>
        <Layout.Content className={styles.content}>
          <GuardGate pending={<AdminContentSkeleton />}>
            {/* A 超级管理员 screen opened by an editor: the refusal, not a page of refused calls. */}
            {mustChange ? null : isSuperOnly(pathname) ? (
              <SuperOnly>
                <Outlet />
              </SuperOnly>
            ) : (
              <Outlet />
            )}
          </GuardGate>
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
      // The screen's calls in flight are answered first: after the logout they would come back 401.
      await adminCallsAnswered();
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
  // Until the login check answers: a placeholder the name then takes the place of.
  if (!admin) return <AdminUserPlaceholder />;
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
