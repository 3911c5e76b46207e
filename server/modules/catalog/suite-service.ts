import {
  countAudioFiles,
  DEFAULT_ARTIST,
  DEFAULT_COVER,
  type MusicInfo,
  sortDjList,
  suiteMessages,
  suitePath,
} from "@contracts/suite";
import type { AppDatabase } from "../../db/open.js";
import { notFound } from "../../errors.js";
import { type SuiteRow, suiteRepo } from "./suite-repo.js";
import { chinaDay } from "./visitors.js";

export function toMusicInfo(row: SuiteRow): MusicInfo {
  const djlist = sortDjList(row.djlist ?? []);
  return {
    id: row.id,
    title: row.title,
    url: suitePath(row.id),
    artist: row.artist || DEFAULT_ARTIST,
    image: row.cover || DEFAULT_COVER,
    palyurl: row.playUrl,
    playtype: row.playtype,
    kind: row.kind,
    channel: row.categoryDiyname
      ? { name: row.categoryName ?? "", url: `/sort/${row.categoryDiyname}` }
      : { name: "", url: "/" },
    website: { code: row.siteCode, name: row.siteName, logo: row.siteLogo },
    vipdown: row.vipdown,
    price: row.price,
    views: row.viewCount,
    countLikes: row.likeCount,
    countFavorites: row.favoriteCount,
    duration: row.durationSec,
    djlist,
    // A single without a tree is itself one audio file.
    audioFiles: djlist.length ? countAudioFiles(djlist) : 1,
    update_time: Math.floor(new Date(row.updatedAt).getTime() / 1000),
  };
}

/** The suite detail page's data, counting a view once per visitor per (China) day. */
export function suiteService(db: AppDatabase, now: () => Date = () => new Date()) {
  const repo = suiteRepo(db);
  return {
    async musicInfo(id: number, visitorId?: string): Promise<MusicInfo> {
      const row = await repo.findVisible(id);
      if (!row) throw notFound(suiteMessages.missing);
      const info = toMusicInfo(row);
      if (visitorId && (await repo.recordView(id, visitorId, chinaDay(now())))) info.views += 1;
      return info;
    },
  };
}

export type SuiteService = ReturnType<typeof suiteService>;
