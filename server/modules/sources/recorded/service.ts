import { recordedMessages as messages, type RecordedAnswerView, type TrialAnswerView } from "@contracts/recorded";
import { createHash, randomUUID } from "node:crypto";
import type { AppDatabase } from "../../../db/types.js";
import type { RecordedCall } from "../../../db/schema/index.js";
import { AppError, notFound } from "../../../errors.js";
import { recordedRepo, type RecordedRow, type RecordedSummary } from "./repo.js";

/**
 * Recorded answers (issue 22, ADR 0051): what a source site answered, kept so a repair can be
 * tested against the site's real shape. Canaries keep an answer when they see drift; an operator
 * saves one from a plugin's try. Bounded per source in count and bytes, the oldest dropped first.
 */

export interface RecordedLimits {
  /** Answers kept per source. */
  count: number;
  /** Bytes of bodies kept per source; one answer larger than this is not kept. */
  bytes: number;
}

export const DEFAULT_RECORDED_LIMITS: RecordedLimits = { count: 50, bytes: 8 * 1024 * 1024 };
/** A try's answers wait this long to be saved. */
const TRIAL_KEPT_MS = 30 * 60_000;
const HEADERS_KEPT = 40;

export interface AnswerToKeep {
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined> | Headers;
  body: Buffer | Uint8Array | string;
  reason: string;
  /** The plugin method or built-in step it answered, replayed with the same arguments. */
  call?: RecordedCall | null;
}

function headerRecord(headers: AnswerToKeep["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [key, value] of entries.slice(0, HEADERS_KEPT)) {
    if (value === undefined) continue;
    out[key.toLowerCase()] = (Array.isArray(value) ? value.join(", ") : String(value)).slice(0, 2_000);
  }
  return out;
}

export function viewOf(row: RecordedSummary): RecordedAnswerView {
  return { id: row.id, source: row.source, url: row.url, status: row.status, headers: row.headers, bytes: row.bytes, sha256: row.sha256, reason: row.reason, call: row.call ?? null, at: row.createdAt.toISOString() };
}

export function recordedService(db: AppDatabase, limits: RecordedLimits = DEFAULT_RECORDED_LIMITS) {
  const repo = recordedRepo(db);

  function row(source: string, answer: AnswerToKeep, state: "kept" | "trial", trialId: string | null) {
    const body = typeof answer.body === "string" ? Buffer.from(answer.body, "utf8") : Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
    return {
      source,
      state,
      trialId,
      url: answer.url.slice(0, 4_000),
      status: answer.status,
      headers: headerRecord(answer.headers),
      body,
      bytes: body.byteLength,
      sha256: createHash("sha256").update(body).digest("hex"),
      reason: answer.reason.slice(0, 200),
      call: answer.call ?? null,
    };
  }

  return {
    limits,

    /**
     * Keeps an answer of `source` (a canary's drift, an operator's save). Answers beyond the
     * source's bounds go, oldest first. An answer larger than the byte bound alone is not kept
     * (null): a canary must not fail because a page grew.
     */
    async keep(source: string, answer: AnswerToKeep): Promise<RecordedAnswerView | null> {
      const kept = row(source, answer, "kept", null);
      if (kept.bytes > limits.bytes) return null;
      const [id] = await repo.insert([kept]);
      await repo.bound(source, limits.count, limits.bytes);
      const saved = await repo.get(id!);
      return saved ? viewOf(saved) : null;
    },

    async list(source: string): Promise<RecordedAnswerView[]> {
      return (await repo.list(source)).map(viewOf);
    },

    sources: () => repo.sources(),

    /** One answer with its body (download). */
    async get(id: number): Promise<RecordedRow> {
      const found = await repo.get(id);
      if (!found || found.state !== "kept") throw notFound(messages.notFound);
      return found;
    },

    async remove(id: number): Promise<void> {
      if (!(await repo.remove(id))) throw notFound(messages.notFound);
    },

    /** Every kept answer of a source with its body, oldest first (replays). */
    bodies: (source: string) => repo.bodies(source),

    /**
     * A try's answers, held until an operator saves one or they expire. Those too large to keep
     * are listed without an id. Returns the views in the order the plugin asked.
     */
    async holdTrial(source: string, answers: (AnswerToKeep & { error?: string | null })[]): Promise<TrialAnswerView[]> {
      await repo.sweepTrials(new Date(Date.now() - TRIAL_KEPT_MS));
      const trialId = randomUUID();
      const rows = answers.map((a) => ({ answer: a, row: a.error ? null : row(source, a, "trial", trialId) }));
      const ids = await repo.insert(rows.flatMap((r) => (r.row && r.row.bytes <= limits.bytes ? [r.row] : [])));
      let next = 0;
      return rows.map(({ answer, row: held }) => ({
        id: held && held.bytes <= limits.bytes ? ids[next++]! : null,
        url: answer.url,
        status: answer.status,
        bytes: held?.bytes ?? 0,
        call: answer.call?.method ?? "",
        error: answer.error ?? (held && held.bytes > limits.bytes ? messages.tooLarge : null),
      }));
    },

    /** 保存为样本: a try's answer becomes a kept one, within the source's bounds. */
    async saveTrial(id: number): Promise<RecordedAnswerView> {
      const saved = await repo.keepTrial(id, messages.savedFromTry);
      if (!saved) throw new AppError(410, messages.trialNotFound);
      await repo.bound(saved.source, limits.count, limits.bytes);
      return viewOf(saved);
    },
  };
}

export type RecordedService = ReturnType<typeof recordedService>;
