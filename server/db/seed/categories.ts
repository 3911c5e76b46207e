import type { ItemKind } from "../schema/index.js";

export interface CategoryDef {
  name: string;
  diyname: string;
  /** 2 = listed in "latest" style on /sort/{diyname}; 1 = "recommend" style. */
  modelId: 1 | 2;
  /** Which items the demo puts here; parents (menu groups) hold no items. */
  kind?: ItemKind;
  parent?: string;
}

/** Menu groups: the top navigation shows them with their children as submenus. */
export const PARENT_CATEGORIES: CategoryDef[] = [
  { name: "DJ串烧", diyname: "chuanshao", modelId: 2 },
  { name: "DJ单曲", diyname: "danqu", modelId: 1 },
  { name: "慢歌", diyname: "mange", modelId: 1 },
];

/** The djuu category list of SOURCES.md, in djuu's order. */
export const CATEGORIES: CategoryDef[] = [
  { name: "中文Remix", diyname: "zhongwenremix", modelId: 1, kind: "single", parent: "danqu" },
  { name: "慢摇串烧", diyname: "manyao", modelId: 2, kind: "mix", parent: "chuanshao" },
  { name: "迪高串烧", diyname: "digao", modelId: 2, kind: "mix", parent: "chuanshao" },
  { name: "中文串烧", diyname: "zhongwen", modelId: 2, kind: "mix", parent: "chuanshao" },
  { name: "外语串烧", diyname: "waiyu", modelId: 2, kind: "mix", parent: "chuanshao" },
  { name: "喊麦串烧", diyname: "hanmai", modelId: 2, kind: "mix", parent: "chuanshao" },
  { name: "外文DISCO", diyname: "waiwendisco", modelId: 1, kind: "single", parent: "danqu" },
  { name: "FunkyHouse", diyname: "funkyhouse", modelId: 1, kind: "single", parent: "danqu" },
  { name: "Vina/LakHouse", diyname: "vinahouse", modelId: 1, kind: "single", parent: "danqu" },
  { name: "E.D.M", diyname: "edm", modelId: 1, kind: "single", parent: "danqu" },
  { name: "越南鼓", diyname: "yuenangu", modelId: 1, kind: "single", parent: "danqu" },
  { name: "Hard", diyname: "hard", modelId: 1, kind: "single", parent: "danqu" },
  { name: "Club", diyname: "club", modelId: 2, kind: "mix", parent: "chuanshao" },
  { name: "新弹跳", diyname: "xintantiao", modelId: 1, kind: "single", parent: "danqu" },
  { name: "中文慢歌", diyname: "zhongwenmange", modelId: 1, kind: "single", parent: "mange" },
  { name: "外语慢歌", diyname: "waiyumange", modelId: 1, kind: "single", parent: "mange" },
];

export const MIX_CATEGORIES = CATEGORIES.filter((c) => c.kind === "mix").map((c) => c.diyname);
export const SINGLE_CATEGORIES = CATEGORIES.filter((c) => c.kind === "single").map((c) => c.diyname);

/**
 * A category's own SEO texts. They never name the site: the page appends " - {站点标题}" to the
 * title from the site settings when it answers (ADR 0066), so renaming the site renames it.
 */
export function seoFor(c: CategoryDef) {
  return {
    seoTitle: `${c.name}_${c.name}DJ舞曲免费在线试听`,
    seoKeywords: `${c.name},${c.name}DJ,${c.name}舞曲,DJ串烧,DJ舞曲`,
    seoDescription: `本站收录最新最热的${c.name}DJ舞曲，每日更新，高品质在线试听与下载。`,
  };
}
