import { create } from "zustand";

export type LoginTab = "login" | "register";

interface LoginDialogState {
  open: boolean;
  tab: LoginTab;
  /** Opens the dialog; buttons that need a login (favourite, download...) call this. */
  show: (tab?: LoginTab) => void;
  setTab: (tab: LoginTab) => void;
  close: () => void;
}

export const useLoginDialog = create<LoginDialogState>()((set) => ({
  open: false,
  tab: "login",
  show: (tab = "login") => set({ open: true, tab }),
  setTab: (tab) => set({ tab }),
  close: () => set({ open: false }),
}));
