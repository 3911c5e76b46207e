import { UserOutlined } from "@ant-design/icons";
import { Avatar, Dropdown, type MenuProps } from "antd";
import { useLocation, useNavigate } from "react-router";
import { TOKEN_KEY } from "../../session/keys";
import { useSession, type SessionUser } from "../../session/store";
import { useSiteMessage } from "../feedback";
import styles from "./top-nav.module.css";

const ITEMS: MenuProps["items"] = [
  { key: "/user/favorites", label: "我的收藏" },
  { key: "/user/downloads", label: "下载记录" },
  { key: "/user/profile", label: "个人资料" },
  { type: "divider" },
  { key: "logout", label: "退出登录" },
];

/** The logged-in user's dropdown (spec section 2, Top nav). */
export default function UserMenu({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const message = useSiteMessage();

  async function logout() {
    const token = window.localStorage.getItem(TOKEN_KEY);
    // The accounts issue makes this call meaningful; the local logout must not wait for it.
    if (token) {
      void fetch("/api/user/logout", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
      }).catch(() => undefined);
    }
    // Leave a /user/ page first (spec: logout there goes to /), so its guard sees no logout.
    if (pathname.startsWith("/user/")) await navigate("/");
    window.localStorage.removeItem(TOKEN_KEY);
    useSession.getState().setUser(null);
    void message.success("退出成功");
  }

  const onClick: MenuProps["onClick"] = ({ key }) => {
    if (key === "logout") void logout();
    else void navigate(key);
  };

  return (
    <Dropdown menu={{ items: ITEMS, onClick }} placement="bottomRight" trigger={["click", "hover"]}>
      <button type="button" className={styles.user}>
        <Avatar size={28} src={user.avatar || undefined} icon={<UserOutlined />} />
        <span className={styles.userName}>{user.nickname || user.username}</span>
      </button>
    </Dropdown>
  );
}
