import { formatTrackTime } from "@contracts/djlist";
import { isHlsAddress } from "@contracts/play-format";
import type { MediaSource } from "@contracts/suite-form-texts";
import type { SuiteFormData } from "@contracts/suite-form";
import { type EditNode, fromEditable, toEditable } from "./djlist-edit";

/** What the antd form holds: the API's fields, the media choice, and the tree as edited. */
export type SuiteFormValues = Omit<SuiteFormData, "id" | "url" | "djlist" | "categoryId"> & {
  categoryId: number | undefined;
  mediaSource: MediaSource;
  djlist: EditNode[];
};

export const EMPTY_SUITE: SuiteFormValues = {
  title: "",
  categoryId: undefined,
  artist: "",
  cover: null,
  mediaSource: "upload",
  playUrl: "",
  playtype: "mp3",
  kind: "mix",
  durationSec: null,
  sizeBytes: null,
  sourceSite: "local",
  vipdown: "0",
  price: 0,
  weburl: "",
  webPassword: "",
  djlist: [],
  status: "normal",
  recommended: false,
};

export function mediaSourceOf(playUrl: string): MediaSource {
  if (!playUrl || playUrl.startsWith("/uploads/media/")) return "upload";
  return isHlsAddress(playUrl) ? "hls" : "url";
}

export function toFormValues(data: SuiteFormData): SuiteFormValues {
  const { id: _id, url: _url, ...rest } = data;
  return { ...rest, categoryId: data.categoryId ?? undefined, mediaSource: mediaSourceOf(data.playUrl), djlist: toEditable(data.djlist) };
}

/** The request body of POST/PUT /api/pandaadmin/suites. */
export function toRequestBody(values: SuiteFormValues): Record<string, unknown> {
  const { mediaSource: _source, djlist, ...rest } = values;
  return { ...rest, price: rest.vipdown === "1" ? 0 : (rest.price ?? 0), djlist: fromEditable(djlist) };
}

export const durationHint = (seconds: number | null | undefined) => (seconds ? `约 ${formatTrackTime(seconds)}` : "上传媒体后自动读取");
