import { Menu } from "antd";
import { Link, Outlet, useLocation } from "react-router";
import styles from "./user.module.css";
import { AntdScope } from "../components/AntdScope";

const ITEMS = [
  { key: "/user/profile", label: <Link to="/user/profile">个人资料</Link> },
  { key: "/user/favorites", label: <Link to="/user/favorites">我的收藏</Link> },
  { key: "/user/downloads", label: <Link to="/user/downloads">下载记录</Link> },
  { key: "/user/coinlog", label: <Link to="/user/coinlog">收支明细</Link> },
];

/** User layout: the default layout's chrome plus the user area's own navigation. */
function UserArea() {
  const { pathname } = useLocation();
  return (
    <div className={styles.area}>
      <nav className={styles.side} aria-label="用户中心">
        <div className={styles.sideTitle}>用户中心</div>
        <Menu mode="inline" items={ITEMS} selectedKeys={[pathname]} className={styles.menu} />
      </nav>
      <section className={styles.content}>
        <Outlet />
      </section>
    </div>
  );
}

/** In antd's theme (components/AntdScope.tsx): antd is not at the root. */
export default function UserLayout() {
  return (
    <AntdScope>
      <UserArea />
    </AntdScope>
  );
}
