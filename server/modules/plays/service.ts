import { playMessages, type PlayReport, type PlayReportResult } from "@contracts/plays";
import { QUALIFIED_PLAY_SECONDS } from "@contracts/player-texts";
import type { AppDatabase } from "../../db/open.js";
import { AppError, notFound } from "../../errors.js";
import { playsRepo } from "./repo.js";

/**
 * Qualified plays, the charts' raw material. Rules:
 * - idempotent per playback id: a retried or re-sent report is answered `recorded: false`;
 * - one listener cannot finish two 30-second listens within 30 seconds: a second new playback
 *   from the same visitor that soon is refused (429), so a script cannot inflate the charts;
 * - only visible catalogue items count (404 数据不存在 otherwise).
 */
export function playsService(db: AppDatabase, now: () => Date = () => new Date()) {
  const repo = playsRepo(db);
  return {
    async report(input: PlayReport, who: { visitorId: string; userId: number | null }): Promise<PlayReportResult> {
      if (await repo.playbackRecorded(input.playbackId)) return { recorded: false };
      if (!(await repo.itemIsPlayable(input.itemId))) throw notFound(playMessages.missing);
      const at = now();
      const last = await repo.lastPlayAt(who.visitorId);
      if (last && at.getTime() - last.getTime() < QUALIFIED_PLAY_SECONDS * 1000) {
        throw new AppError(429, playMessages.tooFast);
      }
      const recorded = await repo.insertOnce({ ...input, ...who, playedAt: at });
      return { recorded };
    },
  };
}

export type PlaysService = ReturnType<typeof playsService>;
