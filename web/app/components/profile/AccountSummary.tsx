import { CrownFilled } from "@ant-design/icons";
import { Tag } from "antd";
import type { SessionUser } from "../../session/store";
import styles from "./profile.module.css";

const day = (unixSeconds: number) =>
  new Date(unixSeconds * 1000).toLocaleDateString("zh-CN", { timeZone: "Asia/Shanghai", year: "numeric", month: "2-digit", day: "2-digit" });

/** Name, coin balance (币) and VIP state beside the avatar. */
export function AccountSummary({ user, now = Date.now() }: { user: SessionUser; now?: number }) {
  const vipActive = user.vipUntil !== null && user.vipUntil * 1000 > now;
  return (
    <div className={styles.summary}>
      <div className={styles.displayName}>{user.nickname || user.username}</div>
      <div className={styles.stats}>
        <span>
          金币：<b className={styles.coins}>{user.coins}</b> 币
        </span>
        {vipActive ? (
          <Tag color="gold" icon={<CrownFilled />}>
            VIP会员 · {day(user.vipUntil!)} 到期
          </Tag>
        ) : user.vipUntil ? (
          <Tag>VIP已于 {day(user.vipUntil)} 过期</Tag>
        ) : (
          <Tag>未开通VIP</Tag>
        )}
      </div>
      <div className={styles.joined}>注册于 {day(user.createTime)}</div>
    </div>
  );
}
