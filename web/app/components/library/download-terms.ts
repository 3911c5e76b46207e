import { formatChinaDate } from "../suite/format";
import type { DownloadTarget } from "./download-dialog-store";

export { HOW_TO_EARN } from "@contracts/economy-texts";

/** The balance is short of the price: what it is and what is needed. */
export const coinsShortText = (coins: number, price: number) => `余额不足：当前 ${coins} 币，需要 ${price} 币`;

export interface DownloadTerms {
  /** The line that says what this download costs (or why it is free). */
  text: string;
  /** The member's coins are known to be short of the price: the text says so, in red. */
  short: boolean;
  /** A VIP-only suite and no active VIP: the text says so, in red, and points to 开通VIP. */
  needsVip?: boolean;
  /** Whether 确认下载 can be pressed. */
  canConfirm: boolean;
  /** The confirm button's text. */
  confirmLabel: string;
}

export interface MemberPurse {
  coins: number;
  /** Unix seconds; null: never VIP. */
  vipUntil: number | null;
  /** The member bought this suite before (a repeat download is free); null while not known. */
  purchased: boolean | null;
  /** Unix ms. */
  now: number;
}

/** Where a member without VIP learns how to get it: VIP is bought with coins on 收支明细 (ADR 0061). */
export const HOW_TO_GET_VIP = "VIP可在收支明细中用金币开通，金币可每日签到获得";

/**
 * The download dialog's first step: the price against the balance, VIP, free, or bought before.
 * A priced suite the balance cannot pay is not confirmable (the server would refuse it): it
 * stays so while the purchase check is out, and says why once it is known not bought.
 */
export function downloadTerms(target: Pick<DownloadTarget, "vipdown" | "price">, purse: MemberPurse): DownloadTerms {
  const { coins, vipUntil, purchased } = purse;
  if (target.vipdown === "1") {
    const vipActive = vipUntil !== null && vipUntil * 1000 > purse.now;
    if (vipActive) return { text: `VIP专属下载，您的VIP有效期至${formatChinaDate(vipUntil)}`, short: false, canConfirm: true, confirmLabel: "确认下载" };
    // The server refuses it (该套曲为VIP专属下载，请先开通VIP): the button says so before a press does.
    return { text: "该套曲为VIP专属下载，您还不是VIP会员或VIP已过期", short: false, needsVip: true, canConfirm: false, confirmLabel: "确认下载" };
  }
  if (target.price === 0) return { text: "免费下载", short: false, canConfirm: true, confirmLabel: "确认下载" };
  if (purchased) return { text: "您已购买过该套曲，重新下载免费", short: false, canConfirm: true, confirmLabel: "确认下载" };
  const enough = coins >= target.price;
  const short = !enough && purchased === false;
  return {
    text: short ? coinsShortText(coins, target.price) : `下载需要${target.price}币，当前余额${coins}币`,
    short,
    canConfirm: enough,
    confirmLabel: `确认下载（${target.price}币）`,
  };
}
