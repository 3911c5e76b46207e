import { COINS_MAX } from "@contracts/admin-people-texts";
import {
  checkinAtMax,
  aboveMax,
  type AdminCoinsBody,
  belowZero,
  type BuyVipResult,
  type CheckinResult,
  checkinCoins,
  COIN_REASON_TEXT,
  type CoinLogEntry,
  economyMessages as m,
  type VipPlanCode,
  vipPlan,
  vipShort,
  type Wallet,
} from "@contracts/economy";
import type { PageQuery, Paged } from "@contracts/library";
import type { AppDatabase } from "../../db/types.js";
import { AppError, badRequest, conflict, notFound } from "../../errors.js";
import { chinaDay } from "../../lib/china-day.js";
import type { Clock } from "../../lib/clock.js";
import type { AuditActor, AuditService } from "../audit/service.js";
import { economyRepo } from "./repo.js";

const DAY_MS = 86_400_000;
const seconds = (at: Date | null) => (at ? Math.floor(at.getTime() / 1000) : null);
/** China keeps no summer time: the day before is the day of 24 hours earlier. */
const dayBefore = (at: Date) => chinaDay(new Date(at.getTime() - DAY_MS));

export interface EconomyDeps {
  clock: Clock;
  audit: AuditService;
}

/**
 * The member economy (ADR 0061): daily check-ins, VIP bought with coins, the coin ledger, and the
 * back office's grants and deductions. Every change of a balance writes its ledger row in the same
 * transaction (`economyRepo.move`), so a balance is always the sum of its ledger.
 */
export function economyService(db: AppDatabase, { clock, audit }: EconomyDeps) {
  const reader = economyRepo(db);

  return {
    async wallet(userId: number): Promise<Wallet> {
      const now = clock();
      const [purse, today, yesterday] = await Promise.all([
        reader.purse(userId),
        reader.streakOn(userId, chinaDay(now)),
        reader.streakOn(userId, dayBefore(now)),
      ]);
      if (!purse) throw notFound(m.userMissing);
      return { coins: purse.coins, vipUntil: seconds(purse.vipUntil), checkedIn: today > 0, streak: today || yesterday };
    },

    /** Today's check-in (China day): the coins of the streak it continues; a second one is 409 今日已签到. */
    async checkin(userId: number): Promise<CheckinResult> {
      return db.transaction(async (tx) => {
        const repo = economyRepo(tx);
        const now = clock();
        const streak = (await repo.streakOn(userId, dayBefore(now))) + 1;
        const gained = checkinCoins(streak);
        if (!(await repo.addCheckin(userId, chinaDay(now), streak, gained, now))) throw conflict(m.alreadyCheckedIn);
        const coins = await repo.move(userId, gained, { reason: "checkin", note: `每日签到（连续${streak}天）`, at: now });
        // Only a balance at COINS_MAX refuses a gain: nothing of the check-in stays.
        if (coins === undefined) throw badRequest(checkinAtMax(COINS_MAX));
        return { coins, gained, streak };
      });
    },

    /** VIP for a plan's days, from the later of now and the current end; paid in coins. */
    async buyVip(userId: number, code: VipPlanCode): Promise<BuyVipResult> {
      const plan = vipPlan(code);
      if (!plan) throw badRequest(m.badPlan);
      return db.transaction(async (tx) => {
        const repo = economyRepo(tx);
        const now = clock();
        // Locked first: two purchases at once extend one after the other, never from the same end.
        const purse = await repo.lockPurse(userId);
        if (!purse) throw notFound(m.userMissing);
        const coins = await repo.move(userId, -plan.coins, { reason: "vip", note: `开通${plan.label}`, at: now });
        if (coins === undefined) throw badRequest(vipShort(plan.label, plan.coins, purse.coins));
        const from = Math.max(now.getTime(), purse.vipUntil?.getTime() ?? 0);
        const until = new Date(from + plan.days * DAY_MS);
        await repo.setVipUntil(userId, until);
        return { coins, vipUntil: seconds(until)!, charged: plan.coins, days: plan.days };
      });
    },

    async coinlog(userId: number, { page, size }: PageQuery): Promise<Paged<CoinLogEntry>> {
      const { rows, total } = await reader.log(userId, size, (page - 1) * size);
      return { total, list: rows.map((r) => ({ ...r, reason_text: COIN_REASON_TEXT[r.reason] ?? r.reason })) };
    },

    /** An admin's grant (> 0) or deduction (< 0) with its reason; never below 0 nor past COINS_MAX; audited. */
    async adjust(actor: AuditActor, userId: number, { amount, reason }: AdminCoinsBody): Promise<{ id: number; coins: number }> {
      return db.transaction(async (tx) => {
        const repo = economyRepo(tx);
        const before = await repo.lockPurse(userId);
        if (!before) throw notFound(m.userMissing);
        const grant = amount > 0;
        const note = `${grant ? "管理员发放" : "管理员扣除"}：${reason}`;
        const coins = await repo.move(userId, amount, { reason: grant ? "admin_grant" : "admin_deduct", note, adminId: actor.adminId, at: clock() });
        if (coins === undefined) throw new AppError(400, grant ? aboveMax(COINS_MAX) : belowZero(before.coins));
        await audit.record(
          actor,
          { action: "user.coins", targetType: "user", targetId: userId, before: { coins: before.coins }, after: { coins }, detail: { amount, reason } },
          tx as unknown as AppDatabase,
        );
        return { id: userId, coins };
      });
    },

    /** Members whose balance is not the sum of their ledger (none, unless something wrote around it). */
    mismatches: () => reader.mismatches(),
  };
}

export type EconomyService = ReturnType<typeof economyService>;
