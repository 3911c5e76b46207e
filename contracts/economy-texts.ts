// No zod here: the navbar's user menu, the 收支明细 page and the download dialog import these.
// The request/answer schemas are in ./economy.ts.

/** The member economy's calls (ADR 0061). */
export const economyPaths = {
  checkin: "/api/user/checkin",
  buyVip: "/api/user/buyvip",
  coinlog: "/api/user/coinlog",
  wallet: "/api/user/wallet",
  adminCoins: (userId: number) => `/api/pandaadmin/users/${userId}/coins`,
} as const;

/** Coins of a check-in: 2, plus 1 for every consecutive day before it, the bonus at most 5. */
export const CHECKIN_BASE_COINS = 2;
export const CHECKIN_MAX_BONUS = 5;
export const checkinCoins = (streak: number) => CHECKIN_BASE_COINS + Math.min(Math.max(streak - 1, 0), CHECKIN_MAX_BONUS);

/** VIP bought with coins: days for a price. */
export const VIP_PLANS = [
  { code: "m1", days: 30, coins: 100, label: "VIP 30天" },
  { code: "m3", days: 90, coins: 270, label: "VIP 90天" },
  { code: "y1", days: 365, coins: 1000, label: "VIP 365天" },
] as const;
export type VipPlanCode = (typeof VIP_PLANS)[number]["code"];
export const VIP_PLAN_CODES = VIP_PLANS.map((p) => p.code) as [VipPlanCode, ...VipPlanCode[]];
export const vipPlan = (code: string) => VIP_PLANS.find((p) => p.code === code);

/** An admin's grant or deduction: at most this many coins at once, a reason of 1..100 characters. */
export const ADMIN_COINS_MAX_STEP = 1_000_000;
export const ADMIN_REASON_MAX = 100;

export const economyMessages = {
  checkinOk: "签到成功",
  alreadyCheckedIn: "今日已签到",
  vipOk: "VIP开通成功",
  badPlan: "请选择VIP套餐",
  adjustOk: "金币已调整",
  badAmount: "调整数量须为非零整数，单次最多 1000000 币",
  reasonRequired: "请填写调整原因",
  reasonTooLong: "调整原因不能超过100个字符",
  userMissing: "用户不存在",
  coinlogFailed: "获取收支明细失败，请稍后重试",
  noCoinlog: "暂无收支记录",
  checkinFailed: "签到失败，请稍后重试",
  vipFailed: "开通VIP失败，请稍后重试",
} as const;

/** Too few coins for a VIP plan. */
export const vipShort = (label: string, price: number, balance: number) => `余额不足：开通${label}需要${price}币，当前余额${balance}币`;
/** A deduction would take the balance below 0. */
export const belowZero = (balance: number) => `余额不足：扣除后余额不能为负数（当前 ${balance} 币）`;
/** A grant would take the balance past the most a balance may hold. */
export const aboveMax = (max: number) => `调整后余额不能超过 ${max} 币`;

/** A check-in when the balance already holds the most it may: nothing is added, nothing recorded. */
export const checkinAtMax = (max: number) => `金币余额已达上限 ${max} 币，今日签到未能加币`;

/** How a member earns coins (the download dialog, the 收支明细 page). */
export const HOW_TO_EARN = "每日签到可得金币";

/** The reason of a ledger row as 收支明细 names it. */
export const COIN_REASON_TEXT: Record<string, string> = {
  opening: "期初余额",
  checkin: "每日签到",
  download: "下载套曲",
  vip: "开通VIP",
  admin_grant: "管理员发放",
  admin_deduct: "管理员扣除",
  admin_set: "管理员修改",
};
