// No zod here: the back office's suite form (browser code) imports this.

/** The suite form of /panda/add and /panda/edit/{id}: limits, choices and messages. */

export const SUITE_TITLE_MAX = 200;
export const SUITE_ARTIST_MAX = 100;
export const SUITE_URL_MAX = 2000;
export const SUITE_PRICE_MAX = 100_000;
export const WEB_PASSWORD_MAX = 32;
/** An uploaded cover: the bytes we accept before decoding (what we keep is a 600 px WebP). */
export const COVER_MAX_BYTES = 10 * 1024 * 1024;
export const COVER_SIZE = 600;
/** An uploaded media file: streamed to disk, refused past this. */
export const MEDIA_MAX_BYTES = 1024 * 1024 * 1024;
/**
 * A larger file goes up in pieces of at most this size (POST …/upload/media/chunks, then PUT
 * each piece, then finish): each request then arrives well within REQUEST_TIMEOUT_MS, whatever
 * the file's size and the admin's connection (ADR 0029).
 */
export const MEDIA_CHUNK_MAX_BYTES = 8 * 1024 * 1024;
/** The browser's piece size, below the server's limit. */
export const MEDIA_CHUNK_BYTES = 4 * 1024 * 1024;
export const MEDIA_ACCEPT = ".mp3,.m4a,.mp4,audio/mpeg,audio/mp4,video/mp4";

export const SUITE_KIND_NAMES = { mix: "套曲", single: "单曲" } as const;
export const SUITE_STATUS_NAMES = { normal: "正常", hidden: "禁用" } as const;
export const SUITE_PLAYTYPE_NAMES = { mp3: "音频 (mp3/m4a)", mp4: "视频 (mp4)" } as const;
export const SUITE_VIPDOWN_NAMES = { "1": "VIP 下载", "0": "按币下载" } as const;

export const suiteFormMessages = {
  titleRequired: "请输入套曲名称",
  titleTooLong: `套曲名称不能超过 ${SUITE_TITLE_MAX} 个字`,
  categoryRequired: "请选择分类",
  categoryMissing: "分类不存在",
  artistTooLong: `歌手不能超过 ${SUITE_ARTIST_MAX} 个字`,
  playUrlRequired: "请上传媒体文件或填写播放地址",
  badUrl: "地址应以 http://、https:// 或 / 开头",
  hlsUrl: "HLS 地址应是 .m3u8 播放列表",
  badPlaytype: "请选择类型",
  badKind: "请选择套曲或单曲",
  siteRequired: "请选择来源站点",
  siteMissing: "来源站点不存在",
  badVipdown: "请选择下载方式",
  badPrice: `价格应是 0 到 ${SUITE_PRICE_MAX} 的整数`,
  passwordTooLong: `网盘密码不能超过 ${WEB_PASSWORD_MAX} 个字`,
  badDuration: "时长应是不小于 0 的整数秒",
  badStatus: "请选择状态",
  badDjlist: "文件列表格式无效",
  badId: "套曲不存在",
  missing: "套曲不存在",
  created: "添加成功",
  saved: "保存成功",
  coverMissing: "请选择封面图片",
  coverNotImage: "封面必须是图片文件 (JPEG、PNG、WebP、GIF、AVIF)",
  coverTooLarge: "封面图片不能超过 10MB",
  coverUploaded: "封面上传成功",
  mediaMissing: "请选择媒体文件",
  mediaNotMedia: "只能上传 mp3、m4a 或 mp4 媒体文件",
  mediaNoDuration: "无法读取媒体时长，文件可能已损坏",
  mediaTooLarge: "媒体文件不能超过 1GB",
  mediaUploaded: "媒体上传成功",
  uploadFailed: "上传失败，请稍后重试",
  uploadGone: "上传已失效，请重新上传",
  chunkOffset: "分片位置不对，请从已收到的位置继续",
  chunkTooLarge: "分片不能超过 8MB",
  chunkBusy: "该上传正在接收另一个分片",
} as const;

/** The form's media choice: an uploaded file, a play address, or an HLS address (all stored as the play address). */
export const MEDIA_SOURCE_NAMES = { upload: "上传文件", url: "播放地址", hls: "HLS 地址" } as const;
export type MediaSource = keyof typeof MEDIA_SOURCE_NAMES;

/** A stored address: absolute http(s) or site-relative (not protocol-relative). */
export const isSuiteUrl = (value: string) => /^https?:\/\/[^\s]+$/iu.test(value) || /^\/(?!\/)[^\s]*$/u.test(value);
