import { sql, type SQL } from "drizzle-orm";
import type { AppDatabase } from "../../db/open.js";
import { items } from "../../db/schema/index.js";
import { selectRows } from "../../db/sql.js";
import { type CatalogueRowOf, catalogueItemFields, catalogueItemJoins, ci as i, visibleItem } from "../catalog/catalogue-item.js";

export interface CatalogueSearch {
  /** `likePattern(keyword)`: answered by the trigram GIN index on items.search_text. */
  pattern: string;
  /** The normalized keyword (`normalize()`), compared with lower(title) / lower(artist) for ranking. */
  keyword: string;
  playtype: "mp3" | "mp4";
  site?: string;
  kind?: "mix" | "single";
  limit: number;
  offset: number;
  /** Stop counting (and ranking) after this many hits. */
  cap: number;
  /**
   * Read the hits in id order (walking the primary key) rather than as the planner likes: for a
   * pattern no trigram can narrow (one Han character) the planner scans the table, and a scan of
   * a table this size goes through a small ring of buffers, so every search read its ~300 pages
   * again (PGlite: ~10 ms, bursts of 30). Walking the key reads the same rows, and their pages
   * stay cached (~4 ms).
   */
  walkInIdOrder?: boolean;
  /** false: read the whole trigram index, never the sample first (small catalogues; see local-provider.ts). */
  sampleFirst?: boolean;
}

/** A page's row: the item and the number of hits (capped). */
const HIT_ROW = { ...catalogueItemFields, total: sql<number>`(select count(*) from hits)::int` };
export type CatalogueHitRow = CatalogueRowOf<typeof HIT_ROW>;

/**
 * Relevance tier of a hit, smaller first:
 * 0 the title or the artist is the keyword;
 * 1 the title starts with it, the song part of "歌手 - 歌名" starts with it, or the artist does;
 * 2 the keyword is a literal substring of title or artist;
 * 3 it only matched the derived words (pinyin, initials).
 */
function tier(kw: string): SQL {
  return sql`case
    when lower(${i.title}) = ${kw} or lower(${i.artist}) = ${kw} then 0
    when starts_with(lower(${i.title}), ${kw}) or strpos(lower(${i.title}), ${" - " + kw}) > 0
      or starts_with(lower(${i.artist}), ${kw}) then 1
    when strpos(lower(${i.title}), ${kw}) > 0 or strpos(lower(${i.artist}), ${kw}) > 0 then 2
    else 3 end`;
}

/** The predicate of items_search_sample_trgm_idx, written out as the index has it. */
export const SEARCH_SAMPLE_MODULUS = 8;
// Safe raw: a constant of this module, written out (a parameter would not match the index's predicate).
const SAMPLE = sql`${i.id} % ${sql.raw(String(SEARCH_SAMPLE_MODULUS))} = 0`;

/** SQL of the local catalogue search. Only visible items (status normal) are found. */
export function searchRepo(db: AppDatabase) {
  return {
    /** The planner's row count of `items` (kept by ANALYZE and autovacuum; 0 before the first). */
    async approximateSize(): Promise<number> {
      // Raw: a catalog table (pg_class), not the schema's.
      const [{ n }] = await selectRows(db, { n: sql<number>`greatest(reltuples, 0)::int` }, (list) => sql`select ${list} from pg_class where oid = 'items'::regclass`);
      return n;
    },

    async search(q: CatalogueSearch): Promise<{ rows: CatalogueHitRow[]; total: number }> {
      const filters: SQL[] = [sql`${i.searchText} like ${q.pattern}`, visibleItem, sql`${i.playtype} = ${q.playtype}`];
      if (q.site) filters.push(sql`${i.sourceSite} = ${q.site}`);
      if (q.kind) filters.push(sql`${i.kind} = ${q.kind}`);
      // `len` stands in for trigram similarity (a short keyword's similarity to a text falls with the
      // text's length); pg_trgm's similarity() costs ~80 µs a row, 100 ms for 1000 hits.
      // `hits` is bounded by the cap so a keyword that matches a large part of the
      // catalogue costs at most `cap` rows of ranking; it is used twice, hence materialized.
      const hit = sql`${i.id}, ${tier(q.keyword)} as tier, length(${i.searchText}) / 32 as len, ${i.viewCount}`;
      const where = sql.join(filters, sql` and `);
      const whole = q.walkInIdOrder ? sql`order by ${i.id} limit ${q.cap + 1}` : sql`limit ${q.cap + 1}`;
      const hits =
        q.walkInIdOrder || q.sampleFirst === false
          ? sql`hits as materialized (select ${hit} from ${items} ${i} where ${where} ${whole})`
        : // A bitmap scan reads and sorts every hit before the limit applies (~10 ms for 40,000).
          // Look among every SEARCH_SAMPLE_MODULUS-th item first (its own partial trigram index,
          // an eighth of the work): when that alone passes the cap, those hits are ranked and the
          // total is "cap+"; otherwise (the one-time filter) the whole index is read as before.
          sql`sample as materialized (select ${hit} from ${items} ${i} where ${where} and ${SAMPLE} limit ${q.cap + 1}),
              hits as materialized (
                select * from sample where (select count(*) from sample) > ${q.cap}
                union all
                (select ${hit} from ${items} ${i} where ${where} and (select count(*) from sample) <= ${q.cap} limit ${q.cap + 1}))`;
      // Raw: materialized CTEs (the sample first, then the capped hits) the builder cannot write.
      const rows = await selectRows(
        db,
        HIT_ROW,
        (list) => sql`with ${hits}, page as (
          select id, tier, len, view_count from hits
          order by tier, len, view_count desc, id desc
          limit ${q.limit} offset ${q.offset}
        )
        select ${list}
        from page p
        join ${items} ${i} on ${i.id} = p.id
        ${catalogueItemJoins}
        order by p.tier, p.len, p.view_count desc, p.id desc`,
      );
      if (rows.length > 0) return { rows, total: rows[0].total };
      // An empty page (past the end, or no hit at all) still reports the number of hits.
      const [{ total }] = await selectRows(
        db,
        { total: sql<number>`count(*)::int` },
        (list) => sql`select ${list} from (select 1 from ${items} ${i} where ${where} limit ${q.cap + 1}) h`,
      );
      return { rows, total };
    },
  };
}
