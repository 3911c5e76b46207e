import { z } from "zod";

import type { DjListNode } from "./djlist";

export { countAudioFiles, type DjListNode, sortDjList } from "./djlist";

export const djListNodeSchema: z.ZodType<DjListNode> = z.lazy(() =>
  z.object({
    label: z.string(),
    icon: z.string().optional(),
    items: z.array(djListNodeSchema).optional(),
    start: z.number().optional(),
  }),
);

export const suiteMessages = {
  badPath: "页面不存在",
  missing: "数据不存在",
  serverError: "服务器错误",
  /** A view beacon without the signed visitor cookie a page answer issued: nothing counted. */
  viewNoVisitor: "浏览未计入：缺少有效的访客标识，请开启Cookie后刷新页面",
} as const;

/** `GET /api/forntend/getmusicinfo?id=`: ids are positive whole numbers; anything else is 页面不存在. */
export const musicInfoQuerySchema = z.object({
  id: z.coerce
    .number({ error: suiteMessages.badPath })
    .int({ error: suiteMessages.badPath })
    .positive({ error: suiteMessages.badPath })
    .max(2_147_483_647, { error: suiteMessages.badPath }),
});

export const musicInfoSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** Canonical detail page. */
  url: z.string(),
  artist: z.string(),
  image: z.string(),
  palyurl: z.string(),
  playtype: z.enum(["mp3", "mp4"]),
  kind: z.enum(["mix", "single"]),
  channel: z.object({ name: z.string(), url: z.string() }),
  website: z.object({ code: z.string(), name: z.string(), logo: z.string().nullable() }),
  vipdown: z.enum(["0", "1"]),
  price: z.number().int(),
  views: z.number().int(),
  countLikes: z.number().int(),
  countFavorites: z.number().int(),
  duration: z.number().int().nullable(),
  djlist: z.array(djListNodeSchema),
  /** The real number of audio files in the tree. */
  audioFiles: z.number().int(),
  /** Unix seconds. */
  update_time: z.number().int(),
});
export type MusicInfo = z.infer<typeof musicInfoSchema>;

/** Defined beside the player's texts (schema-free, so browser code can import them too). */
export { DEFAULT_ARTIST, DEFAULT_COVER } from "./player-texts";

/** `POST /api/forntend/view`: the hydrated suite page's view beacon (ADR 0053). */
export const viewBeaconSchema = z.object({ id: musicInfoQuerySchema.shape.id });

/** The exact view count after the beacon; `counted`: this beacon added a view (first today). */
export const viewCountSchema = z.object({ id: z.number().int(), views: z.number().int(), counted: z.boolean() });
export type ViewCount = z.infer<typeof viewCountSchema>;
