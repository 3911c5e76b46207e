import { UserOutlined } from "@ant-design/icons";
import { Avatar, Dropdown, type MenuProps } from "antd";
import { useNavigate } from "react-router";
// The default avatar is the placeholder cover (contracts/accounts' DEFAULT_AVATAR; that module
// builds zod objects, which the CSP reports when a browser does it).
import { DEFAULT_COVER as DEFAULT_AVATAR } from "@contracts/player-texts";
import type { SessionUser } from "../../session/store";
import { AntdScope } from "../AntdScope";
import { useWallet } from "../economy/wallet";
import { useSiteMessage } from "../feedback";
import styles from "./top-nav.module.css";
import { useLogout } from "./use-logout";

/** "VIP 至 2026-12-27" (China day) while a membership runs, else nothing. */
export function vipLine(vipUntil: number | null, now: number): string | null {
  if (vipUntil === null || vipUntil * 1000 <= now) return null;
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date(vipUntil * 1000));
  return `VIP 至 ${day}`;
}

function menuItems(user: SessionUser, checkedIn: boolean | null): MenuProps["items"] {
  const vip = vipLine(user.vipUntil, Date.now());
  return [
    {
      key: "purse",
      label: (
        <span className={styles.purse} data-user-purse>
          <span>
            余额 <b>{user.coins}</b> 币
          </span>
          {vip ? <span className={styles.vipLine}>{vip}</span> : null}
        </span>
      ),
    },
    { key: "checkin", label: checkedIn ? "今日已签到" : "签到", disabled: checkedIn === true },
    { type: "divider" },
    { key: "/user/favorites", label: "我的收藏" },
    { key: "/user/downloads", label: "下载记录" },
    { key: "/user/coinlog", label: "收支明细" },
    { key: "/user/profile", label: "个人资料" },
    { type: "divider" },
    { key: "logout", label: "退出登录" },
  ];
}

/** The logged-in user's dropdown (spec section 2, Top nav). */
function UserMenuBody({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  const logout = useLogout();
  const message = useSiteMessage();
  const { checkedIn, refresh, checkIn } = useWallet();
  const onClick: MenuProps["onClick"] = ({ key }) => {
    if (key === "logout") void logout();
    else if (key === "checkin") void checkIn().then((r) => (r.ok ? message.success(r.msg) : message.warning(r.msg)));
    else void navigate(key === "purse" ? "/user/coinlog" : key);
  };
  return (
    <Dropdown
      menu={{ items: menuItems(user, checkedIn), onClick }}
      placement="bottomRight"
      trigger={["click", "hover"]}
      // The balance may have moved elsewhere (another tab, an admin): asked again at each opening.
      onOpenChange={(open) => open && void refresh()}
    >
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
