import { pinyin } from "pinyin-pro";
import { Cache } from "../../lib/cache.js";

/**
 * The `items.search_text` column, indexed with a pg_trgm GIN index.
 *
 * Trigrams alone cannot find 1- or 2-character Chinese queries: LIKE '%夜%' yields no trigram,
 * so PostgreSQL scans every row. We therefore also store every Han character (unigram) and
 * every adjacent pair (bigram) as a separate space-delimited word. pg_trgm pads whole words, so
 * LIKE '% 夜 %' and LIKE '% 夜曲 %' do produce trigrams ('  夜', ' 夜 ') and use the index;
 * `likePattern()` builds exactly those patterns. Pinyin (`yequ`) and initials (`yq`, `zjl`)
 * of every Han run make Latin-keyboard queries work.
 */
export function buildSearchText(title: string, artist?: string | null): string {
  const text = normalize(`${title} ${artist ?? ""}`);
  const runs = text.match(HAN_RUN) ?? [];
  const unigrams = new Set<string>();
  const bigrams = new Set<string>();
  const full = new Set<string>();
  const initials = new Set<string>();
  for (const run of runs) {
    const chars = [...run];
    for (let i = 0; i < chars.length; i++) {
      unigrams.add(chars[i]);
      if (i + 1 < chars.length) bigrams.add(chars[i] + chars[i + 1]);
    }
    const syllables = pinyinOf(run);
    full.add(syllables.join(""));
    initials.add(syllables.map((s) => s[0]).join(""));
  }
  return [text, ...unigrams, ...bigrams, ...full, ...initials].join(" ");
}

/**
 * A LIKE pattern (for `search_text like $1`) that the trigram index can answer: 1-2 Han
 * characters match the unigram/bigram words, anything else is a substring match. LIKE
 * wildcards in the keyword are escaped. Returns null for a blank keyword.
 */
export function likePattern(keyword: string): string | null {
  const kw = normalize(keyword);
  if (kw === "") return null;
  const escaped = kw.replace(/[\\%_]/g, (c) => `\\${c}`);
  const isShortHan = /^\p{Script=Han}{1,2}$/u.test(kw);
  return isShortHan ? `% ${escaped} %` : `%${escaped}%`;
}

/** NFKC folds full-width Latin and punctuation (ＤＪ（）) into ASCII; then lower case, single spaces. */
export function normalize(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

const HAN_RUN = /\p{Script=Han}+/gu;

// Titles reuse the same names and phrases; keeping each run's pinyin makes bulk seeding several
// times faster. (A pure function's memo: one per process, not per database.)
export const pinyinOfRun = new Cache<string[]>({
  name: "pinyin",
  maxEntries: 50_000,
  maxBytes: 4 * 1024 * 1024,
  // Readings as UTF-8 plus a small array each (an estimate).
  sizeOf: (readings) => readings.reduce((n, r) => n + r.length + 16, 32),
});

function pinyinOf(run: string): string[] {
  // `v: true`: ü is typed as v on Chinese keyboards (绿 -> lv).
  return pinyinOfRun.memo(run, () => pinyin(run, { toneType: "none", type: "array", v: true }));
}
