import type { CollectUnit } from "../../../db/schema/collect.js";
import type { SourceAdapterEntry } from "../source-provider.js";
import { SourceError, type SearchInput, type SourceItem, type SourcePage } from "../types.js";
import { classify, isChallenge, sniffMedia, type CanaryState, type CheckState, type SeenAnswer } from "./classify.js";

/**
 * One canary run over one source (issue 22, ADR 0049): the same calls a visitor's search, a
 * collection and a play make, through the source's own adapter and guarded clients, each with
 * expectations. Outage and blocked stop the run (asking a dead or refusing site more is no
 * use); drift goes on, so the screen shows which parts still work.
 */

export const CANARY_KEYWORDS = { ascii: "remix", chinese: "串烧" } as const;
/** "Enough items": a search or a first list page with fewer is drift (ADR 0049). */
export const MIN_ITEMS = 3;
export const MEDIA_HEAD_BYTES = 16;

export interface CanaryCheck {
  name: string;
  ok: boolean;
  state: CheckState;
  detail: string;
}

export interface CanaryRun {
  state: CanaryState;
  failingStep: string | null;
  checks: CanaryCheck[];
}

export type DriftAnswer = { url: string; status: number; headers: Record<string, string>; body: Buffer };
export type OnDrift = (source: string, step: string, answer: DriftAnswer) => void | Promise<void>;

export interface RunOptions {
  /** The first list the source has (its collection plan's first category, else its first chart). */
  plan?: CollectUnit[];
  now: () => number;
  onDrift?: OnDrift;
  /** Longest one check may take (default four times the source's timeout: an API and its fallback). */
  stepTimeoutMs?: number;
}

/** A broken expectation: the site answered, but not what a working site answers. */
class Expectation extends Error {}
/** Nothing to check here (the source has no such list, or cannot serve such a query). */
class Skip extends Error {}

function expectItems(page: SourcePage, min: number, what: string): void {
  if (page.items.length < min) throw new Expectation(`${what}：${page.items.length} 条，至少应有 ${min} 条`);
  const bad = page.items.find((i) => !i.sourceId?.trim() || !i.title?.trim());
  if (bad) throw new Expectation(`${what}：有条目缺少编号或标题`);
}

function firstList(plan: CollectUnit[] | undefined): CollectUnit | undefined {
  return plan?.find((u) => u.type === "category") ?? plan?.find((u) => u.type === "chart");
}

export async function runCanary(entry: SourceAdapterEntry, options: RunOptions): Promise<CanaryRun> {
  const { adapter, code } = entry;
  const checks: CanaryCheck[] = [];
  const stepMs = options.stepTimeoutMs ?? 4 * (entry.timeoutMs ?? 3_000);
  let stopped = false;
  let playable: SourceItem | undefined;

  async function step(name: string, body: (signal: AbortSignal, seen: SeenAnswer[]) => Promise<string>): Promise<void> {
    if (stopped) return;
    const seen: SeenAnswer[] = [];
    // The source's own fetcher's answers (ADR 0058: taps live with the fetcher, not in a module).
    const untap = entry.tapAnswers?.((answer) => {
      if (seen.length < 20) seen.push(answer);
    }) ?? (() => {});
    const signal = AbortSignal.timeout(stepMs);
    try {
      const detail = await body(signal, seen);
      checks.push({ name, ok: true, state: "ok", detail });
    } catch (err) {
      if (err instanceof Skip) {
        checks.push({ name, ok: true, state: "skipped", detail: err.message });
        return;
      }
      const error = signal.aborted && !(err instanceof SourceError) ? new SourceError(code, "timeout", `no answer within ${stepMs} ms`) : err;
      const state = classify(error, seen);
      // A challenge page makes the adapter say "layout": the detail names the refusal instead.
      const wall = state === "blocked" ? seen.find(isChallenge) : undefined;
      const detail = wall ? `源站返回拒绝或验证页面（${wall.status} ${wall.url}）`.slice(0, 300) : describe(error);
      checks.push({ name, ok: false, state, detail });
      if (state !== "drift") stopped = true;
      const last = seen.at(-1);
      if (state === "drift" && last && options.onDrift) {
        try {
          await options.onDrift(code, name, { url: last.url, status: last.status, headers: last.headers, body: last.bytes });
        } catch {
          // Keeping the answer is a help, never a reason for the canary to fail.
        }
      }
    } finally {
      untap();
    }
  }

  const search = (name: string, keyword: string) =>
    step(name, async (signal) => {
      const input: SearchInput = { keyword, page: 1, type: "mp3" };
      if (adapter.servesQuery?.(input) === false) throw new Skip("来源不支持此类搜索");
      const page = await adapter.search(input, signal);
      expectItems(page, MIN_ITEMS, `搜索“${keyword}”`);
      playable ??= page.items[0];
      return `${page.items.length} 条`;
    });
  await search("search-ascii", CANARY_KEYWORDS.ascii);
  await search("search-chinese", CANARY_KEYWORDS.chinese);

  const unit = firstList(options.plan);
  let firstIds = new Set<string>();
  await step("list-1", async (signal) => {
    if (!unit) throw new Skip("来源没有榜单或分类");
    const page = unit.type === "chart" ? await adapter.listChart({ period: unit.period, kind: unit.kind }, signal) : await adapter.listCategory(unit.key, 1, signal);
    expectItems(page, MIN_ITEMS, `${unit.type === "chart" ? "榜单" : "分类"}第 1 页`);
    if (unit.type === "category" && unit.maxPages > 1 && !page.hasMore) throw new Expectation("分类第 1 页没有下一页");
    firstIds = new Set(page.items.map((i) => i.sourceId));
    playable ??= page.items[0];
    return `${page.items.length} 条`;
  });
  await step("list-2", async (signal) => {
    if (!unit || unit.type !== "category" || unit.maxPages < 2) throw new Skip("只有一页");
    if (checks.at(-1)?.ok === false) throw new Skip("第 1 页未通过");
    const page = await adapter.listCategory(unit.key, 2, signal);
    expectItems(page, 1, "分类第 2 页");
    if (page.items.every((i) => firstIds.has(i.sourceId))) throw new Expectation("分类第 2 页与第 1 页相同");
    return `${page.items.length} 条`;
  });

  let media: Awaited<ReturnType<typeof adapter.resolveMedia>> | undefined;
  await step("play", async (signal) => {
    if (!playable) throw new Skip("没有可播放的条目");
    const resolved = await adapter.resolveMedia(playable.sourceId, signal);
    if (!/^https?:\/\//u.test(resolved.url)) throw new Expectation("播放地址不是网址");
    if (resolved.expiresAt !== undefined && resolved.expiresAt <= options.now()) throw new Expectation("播放地址已过期");
    // Only an address that passed is read: an expired one would only fail again.
    media = resolved;
    return resolved.format;
  });
  await step("media", async (signal, seen) => {
    if (!media) throw new Skip("没有播放地址");
    if (!entry.media) throw new Skip("来源没有媒体通道");
    const answer = await entry.media.open(media.url, { ...media.headers, range: `bytes=0-${MEDIA_HEAD_BYTES - 1}` }, signal);
    const head = await readHead(answer.body, MEDIA_HEAD_BYTES);
    const headers = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k, String(v)]));
    seen.push({ url: answer.url, status: answer.status, headers, bytes: head });
    if (answer.status !== 200 && answer.status !== 206) throw new Expectation(`媒体地址回答 ${answer.status}`);
    const kind = sniffMedia(head);
    if (!kind) throw new Expectation("媒体开头不是音频或 HLS 播放列表");
    return kind;
  });

  const failed = checks.find((c) => !c.ok);
  return { state: failed ? (failed.state as CanaryState) : "ok", failingStep: failed?.name ?? null, checks };
}

function describe(err: unknown): string {
  if (err instanceof Expectation) return err.message;
  if (err instanceof SourceError) return `${err.kind}${err.status ? ` ${err.status}` : ""}: ${err.message}`.slice(0, 300);
  return (err instanceof Error ? err.message : String(err)).slice(0, 300);
}

/** The first `n` bytes of a stream, then the stream is let go (a Range the host ignored sends the whole file). */
async function readHead(body: NodeJS.ReadableStream & { destroy(): void }, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      chunks.push(buf);
      size += buf.length;
      if (size >= n) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, n);
}
