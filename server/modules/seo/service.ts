import { categoryPath, suitePath } from "@contracts/paths";
import type { AppDatabase } from "../../db/open.js";
import { seoRepo } from "./repo.js";

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

/** robots.txt and sitemaps: the home page, every category and every visible item. */
export function seoService(db: AppDatabase, publicUrl: string) {
  const repo = seoRepo(db);
  const abs = (path: string) => `${publicUrl}${path}`;

  return {
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

    async index(): Promise<string> {
      const itemSitemaps = Math.ceil((await repo.maxItemId()) / ITEMS_PER_SITEMAP);
      const locs = [abs("/sitemap-pages.xml")];
      for (let n = 1; n <= itemSitemaps; n++) locs.push(abs(`/sitemap-items-${n}.xml`));
      const body = locs.map((loc) => `<sitemap><loc>${xmlEscape(loc)}</loc></sitemap>`).join("\n");
      return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;
    },

    async pages(): Promise<string> {
      const categories = await repo.categoryEntries();
      return urlset([{ loc: abs("/") }, ...categories.map((c) => ({ loc: abs(categoryPath(c.diyname)), lastmod: c.lastmod }))]);
    },

    /** Items with ids in the n-th block of 50,000; null when n is past the last block. */
    async items(n: number): Promise<string | null> {
      if (n < 1 || n > Math.ceil((await repo.maxItemId()) / ITEMS_PER_SITEMAP)) return null;
      const rows = await repo.itemsInIdRange((n - 1) * ITEMS_PER_SITEMAP + 1, n * ITEMS_PER_SITEMAP);
      return urlset(rows.map((r) => ({ loc: abs(suitePath(r.id)), lastmod: r.lastmod })));
    },
  };
}
