import { categoryPath, suitePath } from "@contracts/paths";
import type { AppDatabase } from "../../db/open.js";
import { SharedAnswer } from "../../http/shared-answer.js";
import type { CacheRegistry, Tag } from "../../lib/cache.js";
import { ITEM_RANGE, tags } from "../../lib/cache-tags.js";
import { seoRepo } from "./repo.js";

/** Sitemaps are XML (their kept answers carry the type). */
const XML_TYPE = "application/xml; charset=utf-8";

/** The sitemap protocol's limit of URLs per file. */
export const ITEMS_PER_SITEMAP = 50_000;


const xmlEscape = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

const toDate = (d: Date | string) => new Date(d).toISOString();

function urlset(entries: { loc: string; lastmod?: Date | string }[]): string {
  const urls = entries.map(
    (e) => `<url><loc>${xmlEscape(e.loc)}</loc>${e.lastmod ? `<lastmod>${toDate(e.lastmod)}</lastmod>` : ""}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/** Sitemaps are kept until a change event touches them, and made again after this long anyway. */
export const SITEMAP_CACHE_MS = 10 * 60_000;

const itemsKey = (n: number) => `items-${n}`;

/**
 * What each sitemap file lists: "pages" the categories, "index" which files there are (new or
 * deleted ids may add or remove one), "items-n" its ids (any change may show, hide or date one).
 */
function sitemapTags(key: string): Tag[] {
  if (key === "pages") return [tags.nav];
  if (key === "index") return [tags.itemIds];
  const n = Number(key.slice("items-".length));
  const [first, last] = [(n - 1) * ITEMS_PER_SITEMAP + 1, n * ITEMS_PER_SITEMAP];
  const ranges: Tag[] = [];
  for (let r = Math.floor(first / ITEM_RANGE); r <= Math.floor(last / ITEM_RANGE); r++) ranges.push(tags.itemRange(r));
  return ranges;
}

/** robots.txt and sitemaps: the home page, every category and every visible item. */
export function seoService(db: AppDatabase, { publicUrl, caches }: { publicUrl: string; caches: CacheRegistry }) {
  const repo = seoRepo(db);
  const abs = (path: string) => `${publicUrl}${path}`;
  // Each items sitemap is ~5 MB of XML (50,000 URLs), compressed once per kept copy (~0.3 MB
  // gzip): 1,500,000 items are 30 files, all kept. Compressing 5 MB per request cost ~70 ms.
  const sitemaps = caches.create<SharedAnswer | null>({
    name: "sitemaps",
    maxEntries: 256,
    maxBytes: 64 * 1024 * 1024,
    sizeOf: (answer) => answer?.bytesHeld ?? 0,
    freshMs: SITEMAP_CACHE_MS,
    tagsOf: (_answer, key) => sitemapTags(key),
  });

  return {
    /** The site's absolute address (PUBLIC_URL): pages name their canonical URL with it. */
    publicUrl,
    robots(): string {
      return [
        "User-agent: *",
        "Disallow: /panda",
        "Disallow: /user/",
        "Disallow: /api/",
        "Disallow: /pandaadmin/",
        "Allow: /",
        "",
        `Sitemap: ${abs("/sitemap.xml")}`,
        "",
      ].join("\n");
    },

    index: () => sitemaps.get("index", async () => kept(await buildIndex())) as Promise<SharedAnswer>,
    pages: () => sitemaps.get("pages", async () => kept(await buildPages())) as Promise<SharedAnswer>,
    /** Items with ids in the n-th block of 50,000; null when n is past the last block. */
    async items(n: number): Promise<SharedAnswer | null> {
      const xml = await sitemaps.get(itemsKey(n), async () => {
        const built = await buildItems(n);
        return built === null ? null : kept(built);
      });
      // Only files that exist are kept: asking for made-up numbers must not push them out.
      if (xml === null) sitemaps.delete(itemsKey(n));
      return xml;
    },
  };

  /**
   * Gzipped at once (crawlers ask for gzip), so the cache counts the compressed size it keeps:
   * counted as 5 MB of plain XML each, all but a dozen files were pushed out and built again.
   */
  function kept(xml: string): SharedAnswer {
    const answer = SharedAnswer.text(xml, XML_TYPE);
    answer.encodedAs("gzip");
    return answer;
  }

  async function buildIndex(): Promise<string> {
    const itemSitemaps = Math.ceil((await repo.maxItemId()) / ITEMS_PER_SITEMAP);
    const locs = [abs("/sitemap-pages.xml")];
    for (let n = 1; n <= itemSitemaps; n++) locs.push(abs(`/sitemap-items-${n}.xml`));
    const body = locs.map((loc) => `<sitemap><loc>${xmlEscape(loc)}</loc></sitemap>`).join("\n");
    return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;
  }

  async function buildPages(): Promise<string> {
    const categories = await repo.categoryEntries();
    return urlset([{ loc: abs("/") }, ...categories.map((c) => ({ loc: abs(categoryPath(c.diyname)), lastmod: c.lastmod }))]);
  }

  async function buildItems(n: number): Promise<string | null> {
    if (n < 1 || n > Math.ceil((await repo.maxItemId()) / ITEMS_PER_SITEMAP)) return null;
    const rows = await repo.itemsInIdRange((n - 1) * ITEMS_PER_SITEMAP + 1, n * ITEMS_PER_SITEMAP);
    return urlset(rows.map((r) => ({ loc: abs(suitePath(r.id)), lastmod: r.lastmod })));
  }
}
