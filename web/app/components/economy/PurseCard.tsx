import { HOW_TO_EARN, VIP_PLANS, type VipPlanCode } from "@contracts/economy-texts";
import { Button, Popconfirm } from "antd";
import { useEffect, useState } from "react";
import { useSession } from "../../session/store";
import { useSiteMessage } from "../feedback";
import { formatChinaDate } from "../suite/format";
import styles from "./economy.module.css";
import { postBuyVip, showPurse, useWallet } from "./wallet";

/** The balance, the VIP end, today's check-in and the VIP plans (收支明细's head). */
export function PurseCard() {
  const user = useSession((s) => s.user);
  const { checkedIn, streak, refresh, checkIn, changed } = useWallet();
  const message = useSiteMessage();
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  if (!user) return null;
  const vipActive = user.vipUntil !== null && user.vipUntil * 1000 > Date.now();

  const onCheckin = async () => {
    setBusy("checkin");
    const r = await checkIn();
    setBusy(null);
    if (r.ok) void message.success(r.msg);
    else void message.warning(r.msg);
  };
  const buy = async (plan: VipPlanCode) => {
    setBusy(plan);
    try {
      const res = await postBuyVip(plan);
      if (res.code !== 1) return void message.error(res.msg);
      showPurse(res.data.coins, res.data.vipUntil);
      changed();
      void message.success(`${res.msg}，VIP 至 ${formatChinaDate(res.data.vipUntil)}`);
    } catch {
      void message.error("开通VIP失败，请稍后重试");
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className={styles.purse} aria-label="我的金币">
      <div>
        <div className={styles.balance} data-purse-balance>
          余额<b>{user.coins}</b>币
        </div>
        <div className={styles.vip}>
          {vipActive ? <span className={styles.vipOn}>VIP 至 {formatChinaDate(user.vipUntil!)}</span> : "未开通VIP"}
          {streak > 0 ? <span>　已连续签到 {streak} 天</span> : null}
        </div>
      </div>
      <div className={styles.actions}>
        <div className={styles.plans}>
          <Button type="primary" onClick={onCheckin} disabled={checkedIn === true} loading={busy === "checkin"}>
            {checkedIn ? "今日已签到" : "签到"}
          </Button>
          {VIP_PLANS.map((p) => (
            <Popconfirm
              key={p.code}
              title={`开通${p.label}`}
              description={`将扣除${p.coins}币，当前余额${user.coins}币`}
              okText="确认开通"
              cancelText="取消"
              onConfirm={() => buy(p.code)}
            >
              <Button loading={busy === p.code}>
                {p.label} · {p.coins}币
              </Button>
            </Popconfirm>
          ))}
        </div>
        <p className={styles.hint}>{HOW_TO_EARN}：2币起，连续签到每天多1币，最多7币</p>
      </div>
    </section>
  );
}
