import { z } from "zod";
import { MAX_LISTENED_SECONDS, PLAYBACK_ID_PATTERN, QUALIFIED_PLAY_SECONDS } from "./player-texts";

export const playMessages = {
  badItem: "歌曲编号不正确",
  badPlayback: "播放编号不正确",
  tooShort: `收听不足${QUALIFIED_PLAY_SECONDS}秒，不计入播放`,
  tooLong: "收听时长不正确",
  missing: "数据不存在",
  tooFast: "播放上报过于频繁，请稍后再试",
  notStarted: "未记录到播放开始，不计入播放",
} as const;

const itemIdSchema = z
  .number({ error: playMessages.badItem })
  .int({ error: playMessages.badItem })
  .positive({ error: playMessages.badItem })
  .max(2_147_483_647, { error: playMessages.badItem })
  .describe("歌曲/套曲编号");
const playbackIdSchema = z
  .string({ error: playMessages.badPlayback })
  .regex(PLAYBACK_ID_PATTERN, { error: playMessages.badPlayback })
  .describe("播放器为每次播放生成的编号 (16-64 位 A-Z a-z 0-9 _ -)");

/**
 * `POST /api/forntend/play/start`: the player saw this playback really start playing. The
 * server keeps when it saw it, for the visitor and item; the qualified report of the playback
 * counts only 30 s or more after that (ADR 0014). Sending it again keeps the first start.
 */
export const playStartSchema = z.object({ itemId: itemIdSchema, playbackId: playbackIdSchema });
export type PlayStartReport = z.infer<typeof playStartSchema>;

export const playStartResultSchema = z.object({
  /** Whole seconds since the server first saw this playback start (0 for a new one). */
  startedSecondsAgo: z.number().int().min(0),
});
export type PlayStartResult = z.infer<typeof playStartResultSchema>;

/**
 * `POST /api/forntend/play`: one qualified play (>= 30 s of real listening) of a catalogue
 * item. `playbackId` is made by the player once per playback, so retries and reloads of the
 * same playback are recorded once. Counted only when the server saw the playback start (the
 * start report above) from the same visitor at least 30 s earlier, and `secondsListened` is no
 * more than the time since then.
 */
export const playReportSchema = z.object({
  itemId: itemIdSchema,
  playbackId: playbackIdSchema,
  secondsListened: z
    .number({ error: playMessages.tooLong })
    .int({ error: playMessages.tooLong })
    .min(QUALIFIED_PLAY_SECONDS, { error: playMessages.tooShort })
    .max(MAX_LISTENED_SECONDS, { error: playMessages.tooLong })
    .describe("实际收听秒数 (不含拖动跳过的部分)"),
});
export type PlayReport = z.infer<typeof playReportSchema>;

export const playReportResultSchema = z.object({
  /** false when this playback was already recorded (the report is idempotent). */
  recorded: z.boolean(),
});
export type PlayReportResult = z.infer<typeof playReportResultSchema>;
