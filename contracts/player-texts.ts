// No zod here: the player (browser code) imports these, and the public bundle stays free of schemas.

/** Spec section 8: the player's messages, letter for letter. */
export const playerMessages = {
  badUrl: "媒体地址无效",
  unsupported: "不支持的媒体格式",
  playbackError: "播放出错",
  initFailed: "播放器初始化失败",
  autoplayBlocked: "点击播放按钮开始播放",
  playFailed: "播放失败，请稍后重试",
} as const;

/** Spec section 9. */
export const DEFAULT_COVER = "/img/noimage.png";
export const DEFAULT_ARTIST = "未知歌手";
export const PLAYER_WAIT_TIMEOUT_MS = 10_000;
export const PLAYER_WAIT_POLL_MS = 200;
export const VIDEO_TIME_THROTTLE_MS = 200;
export const RESIZE_DEBOUNCE_MS = 250;
export const VOLUME_MAX = 100;

/** A play counts for the charts after this much real listening (not seeking). */
export const QUALIFIED_PLAY_SECONDS = 30;
/** Longest listening a report may claim (a day): anything above is not a real playback. */
export const MAX_LISTENED_SECONDS = 86_400;
/** Playback ids the player makes: url-safe random text. */
export const PLAYBACK_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
export const PLAY_REPORT_PATH = "/api/forntend/play";
/** Where the player says a playback really started (the qualified report needs it 30 s before). */
export const PLAY_START_PATH = "/api/forntend/play/start";
