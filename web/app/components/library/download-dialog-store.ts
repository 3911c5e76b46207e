import type { DownloadResult } from "@contracts/library";
import { create } from "zustand";

/** What the download dialog needs to know of the item before asking the server. */
export interface DownloadTarget {
  id: number;
  title: string;
  vipdown: "0" | "1";
  price: number;
  /** The source site, when known: downloads of another site's suites happen on that site's drive. */
  website?: { code: string; name: string };
}

interface DownloadDialogState {
  target: DownloadTarget | null;
  /** Called after a successful download (the page marks the item downloaded). */
  onDownloaded?: (result: DownloadResult) => void;
  show: (target: DownloadTarget, onDownloaded?: (result: DownloadResult) => void) => void;
  close: () => void;
}

/** The one download dialog of the page: its buttons (detail page, favourites, downloads) open it. */
export const useDownloadDialog = create<DownloadDialogState>()((set) => ({
  target: null,
  show: (target, onDownloaded) => set({ target, onDownloaded }),
  close: () => set({ target: null, onDownloaded: undefined }),
}));
