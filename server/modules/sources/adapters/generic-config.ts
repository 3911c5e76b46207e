import { z } from "zod";

/**
 * The configuration of a generic source (issue 11: a site added or repaired by data, without a
 * code change). A config is a plain JSON value: store it, validate it with
 * `genericSourceConfig`, build an adapter from it (`createGenericAdapter`), and build a new
 * adapter when it changes.
 *
 * URL templates take `{keyword}`, `{page}`, `{id}`, `{category}`, `{chart}` (URL-encoded) and
 * `{base:name}` (a named base address from `bases`, as is); relative templates resolve against
 * `baseUrl`. A field is read from HTML (selector + attribute or text, optional regex whose first
 * group is the value) or from JSON (a dotted path, `[]` for every element of an array).
 */

/** A regular expression (Unicode mode); `{nextPage}`-style placeholders are filled before use. */
const regex = z.string().refine((source) => {
  try {
    return new RegExp(source.replace(/\{[A-Za-z_]\w*\}/gu, "0"), "u").source.length > 0;
  } catch {
    return false;
  }
}, "not a valid regular expression");

export const htmlField = z.strictObject({
  /** Inside the list item (or the page for details and media); none = the item itself. */
  selector: z.string().min(1).optional(),
  /** Attribute names tried in order (lazy images: data-original, data-src, src); none = the text. */
  attr: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  /** The value is the first capture group (or the whole match). */
  regex: regex.optional(),
  /** The value put in a template (`https://media.example/{value}.m4a`); a value already starting with http is kept as is. */
  template: z.string().optional(),
});

export const jsonField = z.strictObject({
  path: z.string().min(1),
  regex: regex.optional(),
  template: z.string().optional(),
});

const fieldNames = z.enum(["id", "title", "artist", "url", "cover", "duration", "size", "kind"]);

export const htmlExtract = z.strictObject({
  type: z.literal("html"),
  /** One element per item (lists); none for one-item pages (details, media). */
  items: z.string().min(1).optional(),
  fields: z.partialRecord(fieldNames, htmlField),
  /** Any match means a next page (`{nextPage}` is filled in the regex). */
  nextPage: htmlField.optional(),
  /**
   * What an empty result page still shows (its list container, a 没有找到 text). When set, a page
   * with no item and none of these is a changed layout (an error), not "no results".
   */
  emptyWhen: z.strictObject({ selectors: z.array(z.string().min(1)).default([]), texts: z.array(z.string().min(1)).default([]) }).optional(),
  /** Each matching element's text is one tracklist line (details). */
  tracklist: z.string().min(1).optional(),
});

export const jsonExtract = z.strictObject({
  type: z.literal("json"),
  /** An envelope check: the answer is an error unless the value at `path` equals `equals`. */
  ok: z.strictObject({ path: z.string().min(1), equals: z.union([z.string(), z.number(), z.boolean()]), message: z.string().optional() }).optional(),
  items: z.string().min(1).optional(),
  fields: z.partialRecord(fieldNames, jsonField),
  total: z.string().optional(),
  hasMore: z.string().optional(),
});

export const operation = z.strictObject({
  url: z.string().min(1),
  method: z.enum(["GET", "POST"]).default("GET"),
  body: z.string().optional(),
  headers: z.record(z.string(), z.string()).default({}),
  encoding: z.string().optional(),
  extract: z.discriminatedUnion("type", [htmlExtract, jsonExtract]),
});

export const mediaOperation = operation.extend({
  format: z.enum(["m4a", "mp3", "mp4", "hls"]),
  /** Headers the media host needs (Referer…), handed to the player's proxy. */
  mediaHeaders: z.record(z.string(), z.string()).default({}),
});

export const genericSourceConfig = z.strictObject({
  code: z.string().regex(/^[a-z0-9_-]{2,32}$/u),
  name: z.string().min(1),
  baseUrl: z.url(),
  /** Other addresses the templates name as `{base:name}` (an app API…). */
  bases: z.record(z.string(), z.url()).default({}),
  /** Exact host names the outbound client may reach for this source. */
  hosts: z.array(z.string().min(1)).min(1),
  /** Hosts its resolved media lives on, when it is streamed through us (media that needs `mediaHeaders`). */
  mediaHosts: z.array(z.string().min(1)).default([]),
  /** How long a search waits for this source (default 3 s), and how hard we may ask it. */
  timeoutMs: z.number().int().min(500).max(30_000).optional(),
  concurrency: z.number().int().min(1).max(8).optional(),
  minIntervalMs: z.number().int().min(0).max(10_000).optional(),
  encoding: z.string().optional(),
  headers: z.record(z.string(), z.string()).default({}),
  /** Types the site has (a site without video answers mp4 searches with nothing). */
  types: z.array(z.enum(["mp3", "mp4"])).default(["mp3"]),
  playtype: z.enum(["mp3", "mp4"]).default("mp3"),
  /** The item page when the list does not give one (`/play/{id}.html`). */
  itemUrl: z.string().min(1),
  /** Site kind values → ours (`{"1": "mix", "2": "single"}`). */
  kinds: z.record(z.string(), z.enum(["mix", "single"])).default({}),
  /** Our chart periods → the site's chart key (`{chart}` in the chart template). */
  charts: z.partialRecord(z.enum(["day", "week", "month", "quarter"]), z.string()).default({}),
  /** Categories a collection job walks (`{category}` in the category template); none = charts only. */
  categories: z
    .array(
      z.strictObject({
        key: z.string().min(1),
        name: z.string().min(1),
        /** When the site's category says mix or single. */
        kind: z.enum(["mix", "single"]).optional(),
        maxPages: z.number().int().min(1).max(50).optional(),
      }),
    )
    .default([]),
  search: operation,
  category: operation.optional(),
  chart: operation.optional(),
  details: operation.optional(),
  /** Tried in order until one gives an address (an app API, then the play page…). */
  media: z.array(mediaOperation).default([]),
});

export type GenericSourceConfig = z.infer<typeof genericSourceConfig>;
export type GenericOperation = z.infer<typeof operation>;
export type HtmlField = z.infer<typeof htmlField>;
export type JsonField = z.infer<typeof jsonField>;
export type HtmlExtract = z.infer<typeof htmlExtract>;
export type JsonExtract = z.infer<typeof jsonExtract>;
export type FieldName = z.infer<typeof fieldNames>;

/** A stored config value → a checked config; the message names the wrong field. */
export function parseGenericConfig(value: unknown): GenericSourceConfig {
  const parsed = genericSourceConfig.safeParse(value);
  if (!parsed.success) throw new Error(`generic source config: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
