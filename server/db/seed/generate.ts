import type { DemoMedia, DemoMediaFile } from "../../demo-media/demo-media.types.js";
import type { NewItem } from "../../modules/catalogue-write/types.js";
import { MIX_CATEGORIES, SINGLE_CATEGORIES } from "./categories.js";
import { buildDjList, buildLongMixList, type BuiltDjList } from "./djlist.js";
import { DJS, LANGUAGES, MIX_GENRES, MIX_THEMES, PLACES, SONGS, STYLES, YEARS } from "./names.js";
import { Rng } from "./prng.js";

type Site = "djuu" | "172minx" | "vvvdj" | "local";

/** DemoMedia, plus the long mix's real track starts when the media preparation reports them. */
export type SeedMedia = DemoMedia & { longMixTracks?: { startSec: number }[] };

export interface SeedContext {
  media: SeedMedia;
  /** diyname -> id */
  categoryIds: Map<string, number>;
  now: Date;
}

const DAY_MS = 86_400_000;
const SITE_WEIGHTS: Record<Site, number> = { djuu: 40, "172minx": 25, vvvdj: 25, local: 10 };
const EXCLUSIVE: Partial<Record<Site, string>> = { djuu: "【DJUU独家】", "172minx": "【172Mix独家】" };

/** Mix number i. Mixes 0-2 are the special media every later test relies on. */
export function generateMix(i: number, ctx: SeedContext): NewItem {
  const rng = Rng.for("mix", i);
  const dj = rng.pick(DJS);
  const place = rng.pick(PLACES);
  let site: Site = rng.weighted(SITE_WEIGHTS);
  let category = rng.pick(MIX_CATEGORIES);
  let media = ctx.media.audio[i % ctx.media.audio.length];
  let title = "";
  let djlist: BuiltDjList;

  if (i === 0) {
    // The hour-long mix (seeking, resume, tracklist) with 夜曲 in its title for search tests.
    [site, category, media] = ["local", "zhongwen", ctx.media.longMix];
    title = `福州DJ阿远-全中文国语周杰伦夜曲经典慢摇串烧`;
    djlist = buildLongMixList(media.durationSec, ctx.media.longMixTracks?.map((t) => t.startSec));
  } else {
    if (i === 1) [site, category, media] = ["vvvdj", "manyao", ctx.media.hls]; // vvvdj streams HLS
    if (i === 2) [site, category, media] = ["djuu", "club", ctx.media.video];
    const lang = rng.pick(LANGUAGES);
    const year = rng.chance(0.3) ? String(rng.pick(YEARS)) : "";
    const genre = i === 2 ? "Club现场视频" : `${rng.pick(MIX_GENRES)}音乐`;
    title = `${place}${dj}-${year}${lang}${genre}${rng.pick(MIX_THEMES)}串烧`;
    if (EXCLUSIVE[site] && rng.chance(0.12)) title = EXCLUSIVE[site] + title;
    djlist = buildDjList(rng, media.durationSec, { timed: rng.chance(0.6), tracks: rng.int(8, 20) });
  }

  return {
    kind: "mix",
    title,
    artist: i === 0 ? "DJ阿远" : dj,
    djlist: djlist.tree,
    bpm: rng.chance(0.5) ? rng.int(120, 132) : null,
    ...common(rng, "mix", i, site, category, media, ctx, i < 3),
  };
}

/** Single number i. Single 0 is 周杰伦 - 夜曲, which search tests look for. */
export function generateSingle(i: number, ctx: SeedContext): NewItem {
  const rng = Rng.for("single", i);
  const song = i === 0 ? SONGS[0] : rng.pick(SONGS);
  const dj = i === 0 ? "DJ阿远" : rng.pick(DJS);
  const site: Site = i === 0 ? "djuu" : rng.weighted(SITE_WEIGHTS);
  const style = i === 0 ? "Electro" : rng.pick(STYLES);
  const year = i === 0 ? 2024 : rng.pick(YEARS);
  const tag = song.cantonese ? " 粤语" : rng.chance(0.08) ? " v2" : "";
  let title = `${song.artist} - ${song.song}(${dj} ${style} Rmx ${year}${tag})`;
  if (i > 0 && EXCLUSIVE[site] && rng.chance(0.08)) title = EXCLUSIVE[site] + title;
  const category =
    i === 0 ? "zhongwenremix" : song.foreign ? rng.pick(["waiwendisco", "edm", "funkyhouse", "hard", "waiyumange"]) : rng.pick(SINGLE_CATEGORIES);
  const media = ctx.media.audio[(i + 1) % ctx.media.audio.length];
  return {
    kind: "single",
    title,
    artist: song.artist,
    djlist: null,
    bpm: rng.int(88, 150),
    ...common(rng, "single", i, site, category, media, ctx, i === 0),
  };
}

/** Fields every item gets: media, source, money, counters, dates (the write service derives the rest). */
function common(
  rng: Rng,
  kind: "mix" | "single",
  i: number,
  site: Site,
  category: string,
  media: DemoMediaFile,
  ctx: SeedContext,
  special: boolean,
) {
  const sourceId = String((kind === "mix" ? 100_000 : 5_000_000) + i);
  const kbps = rng.pick([128, 192, 320]);
  const vip = rng.chance(0.2);
  const popularity = Math.pow(rng.next(), 3); // few hits, a long tail
  const views = Math.floor(popularity * 50_000) + rng.int(0, 50);
  const drive = rng.chance(0.5)
    ? `https://pan.baidu.com/s/1${rng.code(22, "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789_-")}`
    : `https://wwi.lanzoui.com/i${rng.code(10)}`;
  const hasDownload = special || rng.chance(0.85);
  // Specials are recent so they show up in "latest" lists; the rest spread over two years.
  const ageMs = special ? rng.int(1, 5) * DAY_MS : Math.floor(rng.next() * 720 * DAY_MS);
  return {
    cover: rng.pick(ctx.media.covers),
    playUrl: media.url,
    playtype: media.mimeType.startsWith("video/") ? ("mp4" as const) : ("mp3" as const),
    durationSec: Math.round(media.durationSec),
    sizeBytes: Math.round((media.durationSec * kbps * 1000) / 8),
    sourceSite: site,
    sourceId: site === "local" ? null : sourceId,
    sourceUrl: sourceUrl(site, sourceId),
    categoryId: ctx.categoryIds.get(category) ?? null,
    vipdown: vip ? ("1" as const) : ("0" as const),
    price: vip || rng.chance(0.5) ? 0 : rng.int(1, 20),
    weburl: hasDownload ? drive : null,
    webPassword: hasDownload ? rng.code(4) : null,
    status: !special && rng.chance(0.02) ? ("hidden" as const) : ("normal" as const),
    recommended: special || rng.chance(0.1),
    publishedAt: new Date(ctx.now.getTime() - ageMs),
    viewCount: views,
    likeCount: Math.floor(views * rng.next() * 0.05),
    favoriteCount: Math.floor(views * rng.next() * 0.03),
    downloadCount: Math.floor(views * rng.next() * 0.02),
  };
}

function sourceUrl(site: Site, id: string): string | null {
  switch (site) {
    case "djuu":
      return `https://www.djuu.com/play/${id}.html`;
    case "172minx":
      return `https://www.172mix.com/play/${id}`;
    case "vvvdj":
      return `https://www.vvvdj.com/play/${id}.html`;
    case "local":
      return null;
  }
}
