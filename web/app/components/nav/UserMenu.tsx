import { UserOutlined } from "@ant-design/icons";
import { Avatar, Dropdown, type MenuProps } from "antd";
import { useNavigate } from "react-router";
// The default avatar is the placeholder cover (contracts/accounts' DEFAULT_AVATAR; that module
// builds zod objects, which the CSP reports when a browser does it).
import { DEFAULT_COVER as DEFAULT_AVATAR } from "@contracts/player-texts";
import type { SessionUser } from "../../session/store";
import { AntdScope } from "../AntdScope";
import styles from "./top-nav.module.css";
import { useLogout } from "./use-logout";

const ITEMS: MenuProps["items"] = [
  { key: "/user/favorites", label: "我的收藏" },
  { key: "/user/downloads", label: "下载记录" },
  { key: "/user/profile", label: "个人资料" },
  { type: "divider" },
  { key: "logout", label: "退出登录" },
];

/** The logged-in user's dropdown (spec section 2, Top nav). */
function UserMenuBody({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const logout = useLogout();
  const onClick: MenuProps["onClick"] = ({ key }) => {
    if (key === "logout") void logout();
    else void navigate(key);
  };
  return (
    <Dropdown menu={{ items: ITEMS, onClick }} placement="bottomRight" trigger={["click", "hover"]}>
      <button type="button" className={styles.user}>
        {/* The default picture is a cover placeholder: a member without an avatar gets the person icon. */}
        {user.avatar && user.avatar !== DEFAULT_AVATAR ? (
          <Avatar size={28} src={user.avatar} />
        ) : (
          <Avatar size={28} icon={<UserOutlined />} className={styles.avatarIcon} />
        )}
        <span className={styles.userName}>{user.nickname || user.username}</span>
      </button>
    </Dropdown>
  );
}

/** In antd's theme (components/AntdScope.tsx): this part is loaded on its own. */
export default function UserMenu({ user }: { user: SessionUser }) {
  return (
    <AntdScope>
      <UserMenuBody user={user} />
    </AntdScope>
  );
}
