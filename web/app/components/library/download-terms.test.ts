import { describe, expect, it } from "vitest";
import { downloadTerms, HOW_TO_EARN } from "./download-terms";

const NOW = Date.UTC(2026, 10, 27);
const purse = (coins: number, purchased: boolean | null, vipUntil: number | null = null) => ({ coins, purchased, vipUntil, now: NOW });
const priced = { vipdown: "0" as const, price: 5 };

describe("download terms", () => {
  it("a new member (0 coins) cannot confirm a priced suite, and is told the balance, the price and how coins come", () => {
    const terms = downloadTerms(priced, purse(0, false));
    expect(terms).toEqual({ text: "余额不足：当前 0 币，需要 5 币", short: true, canConfirm: false, confirmLabel: "确认下载（5币）" });
    expect(HOW_TO_EARN).toBe("每日签到可得金币");
  });

  it("while the purchase check is out, a short balance cannot confirm yet (not said short before it is known)", () => {
    expect(downloadTerms(priced, purse(4, null))).toMatchObject({ text: "下载需要5币，当前余额4币", short: false, canConfirm: false });
  });

  it("enough coins, or exactly the price: confirmable", () => {
    expect(downloadTerms(priced, purse(30, false))).toMatchObject({ text: "下载需要5币，当前余额30币", short: false, canConfirm: true });
    expect(downloadTerms(priced, purse(5, false)).canConfirm).toBe(true);
  });

  it("bought before: free again whatever the balance", () => {
    expect(downloadTerms(priced, purse(0, true))).toEqual({ text: "您已购买过该套曲，重新下载免费", short: false, canConfirm: true, confirmLabel: "确认下载" });
  });

  it("free and VIP suites are not about coins", () => {
    expect(downloadTerms({ vipdown: "0", price: 0 }, purse(0, null))).toMatchObject({ text: "免费下载", canConfirm: true });
    // Not confirmable without an active VIP: the server would refuse it.
    expect(downloadTerms({ vipdown: "1", price: 5 }, purse(0, null))).toMatchObject({ text: "该套曲为VIP专属下载，您还不是VIP会员或VIP已过期", short: false, needsVip: true, canConfirm: false });
    expect(downloadTerms({ vipdown: "1", price: 5 }, purse(500, null, NOW / 1000 - 1)).canConfirm).toBe(false);
    const until = NOW / 1000 + 86_400;
    expect(downloadTerms({ vipdown: "1", price: 5 }, purse(0, null, until))).toMatchObject({ text: "VIP专属下载，您的VIP有效期至2026年11月28日", canConfirm: true });
  });
});
