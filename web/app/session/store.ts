import type { AdminRoleCode } from "@contracts/admin-texts";
import { create } from "zustand";

/** What `/api/user/isloging` returns as data (spec section 3, User). */
import type { SessionUser } from "@contracts/accounts";

export type { SessionUser };

export interface AdminInfo {
  id?: number;
  username: string;
  nickname?: string;
  /** super (超级管理员) or editor (编辑): the menu shows what the role may open (the API enforces it). */
  role?: AdminRoleCode;
  /** The first-start account before it changes its password: the layout opens the dialog (issue 25). */
  mustChangePassword?: boolean;
}

interface SessionState {
  user: SessionUser | null;
  admin: AdminInfo | null;
  setUser: (user: SessionUser | null) => void;
  setAdmin: (admin: AdminInfo | null) => void;
}

/** Browser-side session. Never written during SSR: tokens live in localStorage. */
export const useSession = create<SessionState>()((set) => ({
  user: null,
  admin: null,
  setUser: (user) => set({ user }),
  setAdmin: (admin) => set({ admin }),
}));
