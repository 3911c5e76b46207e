import { z } from "zod";
import { charLength } from "./account-fields";
import {
  COMMENT_MAX_CHARS,
  ITEM_STATE_MAX_IDS,
  LIBRARY_PAGE_MAX,
  LIBRARY_PAGE_SIZE,
  LIBRARY_PAGE_SIZE_MAX,
  libraryMessages as m,
  POSITIONS_MAX,
  QUEUE_MAX_ITEMS,
} from "./library-texts";

export * from "./library-texts";

const MAX_ID = 2_147_483_647;

/** A catalogue item's (or comment's) id in a JSON body: a positive whole number, nothing else. */
export const idField = z
  .number({ error: m.badId })
  .int({ error: m.badId })
  .positive({ error: m.badId })
  .max(MAX_ID, { error: m.badId })
  .describe("编号");

/** `{id}` of favourite, like, download (item ids) and comment deletion (comment id). */
export const itemIdBodySchema = z.object({ id: idField });
export type ItemIdBody = z.infer<typeof itemIdBodySchema>;

/** A query parameter that must be a whole number in range. */
const queryInt = (min: number, max: number, error: string) =>
  z
    .string({ error })
    .regex(/^\d{1,10}$/, { error })
    .transform(Number)
    .pipe(z.number().int().min(min, { error }).max(max, { error }));
/** The same, optional: absent or empty means `fallback`. */
const optionalQueryInt = (min: number, max: number, fallback: number, error: string) =>
  z.preprocess((v) => (v === "" ? undefined : v), queryInt(min, max, error).default(fallback));

/** `?page=&size=` of the member's lists: default page 1, 10 a page (spec section 9), at most 50. */
export const pageQuerySchema = z.object({
  page: optionalQueryInt(1, LIBRARY_PAGE_MAX, 1, m.badPage).describe("页码，从1开始"),
  size: optionalQueryInt(1, LIBRARY_PAGE_SIZE_MAX, LIBRARY_PAGE_SIZE, m.badSize).describe("每页条数，默认10，最多50"),
});
export type PageQuery = z.output<typeof pageQuerySchema>;

/** `GET /api/forntend/comments?id=&page=` (10 a page, newest first). */
export const commentsQuerySchema = z.object({
  id: queryInt(1, MAX_ID, m.badId).describe("套曲/单曲编号"),
  page: optionalQueryInt(1, LIBRARY_PAGE_MAX, 1, m.badPage).describe("页码，从1开始，每页10条"),
});

/** `GET /api/user/item-state?ids=1,2,3`: up to 100 distinct ids. */
export const itemStateQuerySchema = z.object({
  ids: z
    .string({ error: m.badIds })
    .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/, { error: m.badIds })
    .transform((s) => [...new Set(s.split(",").map(Number))])
    .pipe(z.array(z.number().int().max(MAX_ID, { error: m.badIds })).max(ITEM_STATE_MAX_IDS, { error: m.tooManyIds }))
    .describe("逗号分隔的编号，最多100个"),
});

export const favoriteStateSchema = z.object({
  is_favorite: z.boolean(),
  /** The item's favourite count after this call. */
  count: z.number().int(),
});
export type FavoriteState = z.infer<typeof favoriteStateSchema>;

export const likeStateSchema = z.object({
  is_liked: z.boolean(),
  /** The item's like count after this call. */
  count: z.number().int(),
});
export type LikeState = z.infer<typeof likeStateSchema>;

export const downloadResultSchema = z.object({
  /** The network-drive link and its password: given only by this call, never in public answers. */
  weburl: z.string(),
  password: z.string(),
  /** The member's coin balance after the download. */
  coins: z.number().int(),
  /** Coins this download cost (0 for a free item, a VIP download or a re-download of a paid one). */
  charged: z.number().int(),
});
export type DownloadResult = z.infer<typeof downloadResultSchema>;

/** A queue entry as the player needs it (spec Playlist item: id, name, artist, cover, url; mimeType from playtype). */
export const queueEntrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  artist: z.string(),
  cover: z.string(),
  palyurl: z.string(),
  playtype: z.enum(["mp3", "mp4"]),
  /** The detail page. */
  url: z.string(),
});
export type QueueEntry = z.infer<typeof queueEntrySchema>;

/** One row of `/api/user/favorites`: the spec's Favourite (id, name, playtype, weburl, is_favorite) plus what the player needs. */
export const favoriteEntrySchema = queueEntrySchema.extend({
  kind: z.enum(["mix", "single"]),
  vipdown: z.enum(["0", "1"]),
  price: z.number().int(),
  /**
   * Whether the item has a network-drive link (the spec's weburl). The link itself is handed
   * out by `POST /api/user/download` only, where the price is paid and the download recorded.
   */
  downloadable: z.boolean(),
  is_favorite: z.literal(true),
  /** When it was favourited (Unix seconds). */
  createtime: z.number().int(),
});
export type FavoriteEntry = z.infer<typeof favoriteEntrySchema>;

/** One row of `/api/user/downloads` (spec: id, b_id, title, createtime in Unix seconds). */
export const downloadEntrySchema = z.object({
  id: z.number().int(),
  /** The item's id: its page is /sutie/{b_id}.html. */
  b_id: z.number().int(),
  title: z.string(),
  createtime: z.number().int(),
  /** Coins this download cost (0: free, VIP or a re-download). */
  coins_spent: z.number().int(),
  /** The item's download terms now (what a re-download needs). */
  vipdown: z.enum(["0", "1"]),
  price: z.number().int(),
});
export type DownloadEntry = z.infer<typeof downloadEntrySchema>;

export const pagedSchema = <T extends z.ZodType>(entry: T) => z.object({ list: z.array(entry), total: z.number().int() });
export interface Paged<T> {
  list: T[];
  total: number;
}

/** The member's own marks on one item, fetched after hydration (public pages stay anonymous). */
export const itemStateSchema = z.object({
  id: z.number().int(),
  is_favorite: z.boolean(),
  is_liked: z.boolean(),
  /** Downloaded at least once. */
  downloaded: z.boolean(),
  /** Paid for once already: downloading again costs nothing. */
  purchased: z.boolean(),
  /** Resume point in seconds, when the member stopped inside it. */
  position: z.number().int().nullable(),
});
export type ItemState = z.infer<typeof itemStateSchema>;

/** Comment text: trimmed, 1 to 500 characters as a person counts them. Stored and answered as text. */
export const commentContentField = z
  .string({ error: m.commentRequired })
  .trim()
  .min(1, { error: m.commentRequired })
  .refine((s) => charLength(s) <= COMMENT_MAX_CHARS, { error: m.commentTooLong });

export const postCommentSchema = z.object({ id: idField, content: commentContentField });
export type PostComment = z.infer<typeof postCommentSchema>;

export const commentSchema = z.object({
  id: z.number().int(),
  content: z.string(),
  /** Unix seconds. */
  createtime: z.number().int(),
  user: z.object({ nickname: z.string(), avatar: z.string() }),
  /** The signed-in member's own comment (only in the post answer; the public list never knows who asks). */
  mine: z.boolean().optional(),
});
export type Comment = z.infer<typeof commentSchema>;

export const postCommentResultSchema = z.object({ comment: commentSchema, count: z.number().int() });
export const deleteCommentResultSchema = z.object({ count: z.number().int() });

/** A resume point: seconds into the item; updatedAt in Unix milliseconds (the newest wins). */
export const positionSchema = z.object({
  id: idField,
  position: z.number({ error: m.badPositions }).min(0, { error: m.badPositions }).max(1e7, { error: m.badPositions }),
  duration: z.number({ error: m.badPositions }).min(0, { error: m.badPositions }).max(1e7, { error: m.badPositions }).nullable(),
  updatedAt: z.number({ error: m.badPositions }).int({ error: m.badPositions }).min(0, { error: m.badPositions }).max(1e14, { error: m.badPositions }),
});
export type PlaybackPosition = z.infer<typeof positionSchema>;

export const putPositionsSchema = z.object({
  positions: z.array(positionSchema, { error: m.badPositions }).max(POSITIONS_MAX, { error: m.badPositions }),
});

/** The playlist: catalogue item ids in order and the current entry (-1: none). */
export const putQueueSchema = z
  .object({
    ids: z.array(idField, { error: m.badQueue }).max(QUEUE_MAX_ITEMS, { error: m.queueTooLong }),
    index: z.number({ error: m.badQueue }).int({ error: m.badQueue }).min(-1, { error: m.badQueue }),
  })
  .refine((q) => q.index < q.ids.length, { error: m.badQueue });
export type PutQueue = z.infer<typeof putQueueSchema>;



export const playerStateSchema = z.object({
  positions: z.array(positionSchema.extend({ duration: z.number().nullable() })),
  queue: z.object({
    items: z.array(queueEntrySchema),
    index: z.number().int(),
    /** Unix milliseconds of the last change; null when the account has no queue yet. */
    updatedAt: z.number().int().nullable(),
  }),
});
export type PlayerState = z.infer<typeof playerStateSchema>;
