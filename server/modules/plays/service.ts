import {
  playMessages,
  type PlayReport,
  type PlayReportResult,
  type PlayStartReport,
  type PlayStartResult,
} from "@contracts/plays";
import { QUALIFIED_PLAY_SECONDS } from "@contracts/player-texts";
import type { AppDatabase } from "../../db/open.js";
import { AppError, badRequest, notFound } from "../../errors.js";
import { type Clock, systemClock } from "../../lib/clock.js";
import { playsRepo } from "./repo.js";
import { memoryPlayStartStore, type PlayStartStore } from "./start-store.js";

/**
 * How far a report's `secondsListened` may exceed the time since our server saw the playback
 * start: the player claims no more than that time itself, so this only covers clocks running
 * at slightly different rates.
 */
export const LISTENED_SLACK_SECONDS = 5;

/**
 * Qualified plays, the charts' raw material. Rules:
 * - a playback counts only if our server saw it start (`start`) from the same visitor, for the
 *   same item, at least 30 s before the report, and the report claims no more listening than
 *   the time since then (ADR 0014): a script cannot report plays it did not sit through;
 * - idempotent per playback id: a retried or re-sent report is answered `recorded: false`;
 * - one listener cannot finish two 30-second listens within 30 seconds: a second new playback
 *   from the same visitor that soon is refused (429);
 * - only visible catalogue items count (404 数据不存在 otherwise).
 * Per-IP request limits sit in front of both calls (server/http/rate-limits.ts).
 */
export function playsService(db: AppDatabase, clock: Clock = systemClock, starts: PlayStartStore = memoryPlayStartStore(clock)) {
  const repo = playsRepo(db);
  return {
    async start(input: PlayStartReport, who: { visitorId: string }): Promise<PlayStartResult> {
      if (!(await repo.itemIsPlayable(input.itemId))) throw notFound(playMessages.missing);
      const now = clock().getTime();
      const kept = await starts.add(input.playbackId, { visitorId: who.visitorId, itemId: input.itemId, startedAt: now });
      // Someone else's playback id (or another item under the same id): not this playback.
      if (kept.visitorId !== who.visitorId || kept.itemId !== input.itemId) throw badRequest(playMessages.badPlayback);
      return { startedSecondsAgo: Math.max(0, Math.floor((now - kept.startedAt) / 1000)) };
    },

    async report(input: PlayReport, who: { visitorId: string; userId: number | null }): Promise<PlayReportResult> {
      if (await repo.playbackRecorded(input.playbackId)) return { recorded: false };
      const at = clock();
      const start = await starts.get(input.playbackId);
      if (!start || start.visitorId !== who.visitorId || start.itemId !== input.itemId) {
        throw badRequest(playMessages.notStarted);
      }
      const elapsed = (at.getTime() - start.startedAt) / 1000;
      if (elapsed < QUALIFIED_PLAY_SECONDS) throw badRequest(playMessages.tooShort);
      if (input.secondsListened > elapsed + LISTENED_SLACK_SECONDS) throw badRequest(playMessages.tooLong);
      if (!(await repo.itemIsPlayable(input.itemId))) throw notFound(playMessages.missing);
      const last = await repo.lastPlayAt(who.visitorId);
      if (last && at.getTime() - last.getTime() < QUALIFIED_PLAY_SECONDS * 1000) {
        throw new AppError(429, playMessages.tooFast);
      }
      const recorded = await repo.insertOnce({ ...input, ...who, playedAt: at });
      await starts.delete(input.playbackId);
      return { recorded };
    },
  };
}

export type PlaysService = ReturnType<typeof playsService>;
