import type { BuyVipResult, CheckinResult, CoinLogEntry, VipPlanCode, Wallet } from "@contracts/economy";
import { economyMessages as m, economyPaths as paths } from "@contracts/economy-texts";
import type { Paged } from "@contracts/library";
import { create } from "zustand";
import { userCall } from "../../lib/user-api";
import { useSession } from "../../session/store";

/** The member economy's calls (ADR 0061); each resolves to the server's envelope. */
export const getWallet = () => userCall<Wallet>("GET", paths.wallet);
export const postCheckin = () => userCall<CheckinResult>("POST", paths.checkin);
export const postBuyVip = (plan: VipPlanCode) => userCall<BuyVipResult>("POST", paths.buyVip, { plan });
export const getCoinlog = (page: number, size: number) => userCall<Paged<CoinLogEntry>>("GET", `${paths.coinlog}?page=${page}&size=${size}`);

/** Puts a balance (and VIP end) the server answered into the signed-in member's session, where every view reads it. */
export function showPurse(coins: number, vipUntil?: number | null) {
  const current = useSession.getState().user;
  if (current) useSession.getState().setUser({ ...current, coins, ...(vipUntil !== undefined ? { vipUntil } : {}) });
}

interface WalletState {
  /** Checked in today; null while not asked. */
  checkedIn: boolean | null;
  streak: number;
  /** Bumped after every change of the balance: lists showing it (收支明细) load again. */
  version: number;
  /** Asks the server for the balance, VIP end and today's check-in (the session's copy may be stale). */
  refresh: () => Promise<void>;
  /** Today's check-in: the message to show, and whether it succeeded. */
  checkIn: () => Promise<{ ok: boolean; msg: string; gained?: number }>;
  changed: () => void;
}

/** The member's purse as the navbar, the download dialog and 收支明细 show it. */
export const useWallet = create<WalletState>()((set, get) => ({
  checkedIn: null,
  streak: 0,
  version: 0,
  refresh: async () => {
    try {
      const res = await getWallet();
      if (res.code !== 1) return;
      showPurse(res.data.coins, res.data.vipUntil);
      set({ checkedIn: res.data.checkedIn, streak: res.data.streak });
    } catch {
      // Offline: the shown balance stays as it was.
    }
  },
  checkIn: async () => {
    try {
      const res = await postCheckin();
      if (res.code !== 1) {
        // 今日已签到 (another tab, another device): the button says so from now on.
        void get().refresh();
        return { ok: false, msg: res.msg || m.checkinFailed };
      }
      showPurse(res.data.coins);
      set((s) => ({ checkedIn: true, streak: res.data.streak, version: s.version + 1 }));
      return { ok: true, msg: `签到成功，获得${res.data.gained}币（连续${res.data.streak}天）`, gained: res.data.gained };
    } catch {
      return { ok: false, msg: m.checkinFailed };
    }
  },
  changed: () => set((s) => ({ version: s.version + 1 })),
}));
