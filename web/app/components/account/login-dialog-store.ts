import { create } from "zustand";

export type LoginTab = "login" | "register";

/** The /login page is the login form itself: a login dialog over it would be a second one. */
const onLoginPage = () => typeof window !== "undefined" && window.location.pathname === "/login";

interface LoginDialogState {
  open: boolean;
  tab: LoginTab;
  /** Opens the dialog; buttons that need a login (favourite, download...) call this. Not its
   *  login tab on /login (a session that ended sends the member there while such a button may
   *  still be asking for a login). */
  show: (tab?: LoginTab) => void;
  setTab: (tab: LoginTab) => void;
  close: () => void;
}

export const useLoginDialog = create<LoginDialogState>()((set) => ({
  open: false,
  tab: "login",
  show: (tab = "login") => {
    if (tab === "login" && onLoginPage()) return;
    set({ open: true, tab });
  },
  setTab: (tab) => set({ tab }),
  close: () => set({ open: false }),
}));
