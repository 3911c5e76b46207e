// No zod here: the suite page and the user pages (browser code) import these, and the public
// bundle stays free of schemas. The request/answer schemas are in ./library.ts.

/** The personal library's texts: the spec's where it has them (section 8), else plain Chinese. */
export const libraryMessages = {
  missing: "数据不存在",
  badId: "编号不正确",
  badIds: "编号列表不正确",
  tooManyIds: "一次最多查询100个编号",
  badPage: "页码必须是1到10000之间的整数",
  badSize: "每页条数必须是1到50之间的整数",

  favoriteOk: "收藏成功",
  unfavoriteOk: "已取消收藏",
  likeOk: "推荐成功",
  unlikeOk: "已取消推荐",
  operationFailed: "操作失败，请稍后重试",
  unfavoriteFailed: "取消收藏失败，请稍后重试",
  favoritesFailed: "获取收藏列表失败，请稍后重试",
  downloadsFailed: "获取下载记录失败，请稍后重试",
  noFavorites: "暂无收藏",
  noDownloads: "暂无下载记录",

  noDownloadLink: "该套曲暂无下载地址",
  vipOnly: "该套曲为VIP专属下载，请先开通VIP",
  downloadFailed: "下载失败，请稍后重试",
  downloadOk: "获取下载地址成功",

  commentRequired: "请输入评论内容",
  commentTooLong: "评论不能超过500个字符",
  commentTooFast: "评论过于频繁，请稍后再试",
  commentOk: "评论成功",
  commentMissing: "评论不存在",
  commentDeleted: "评论已删除",
  commentsFailed: "评论加载失败，请稍后重试",

  badPositions: "播放进度数据不正确",
  badQueue: "播放列表数据不正确",
  queueTooLong: "播放列表最多200首",

  copyOk: "复制成功",
  copyFailed: "复制失败，请手动复制",
} as const;

/** Too few coins for a priced download: the price and the balance, so the member knows how far off. */
export const notEnoughCoins = (price: number, balance: number) => `币不足，下载需要${price}币，当前余额${balance}币`;

export const LIBRARY_PAGE_SIZE = 10;
export const LIBRARY_PAGE_SIZE_MAX = 50;
export const LIBRARY_PAGE_MAX = 10_000;
export const COMMENT_PAGE_SIZE = 10;
export const COMMENT_MAX_CHARS = 500;
/** Comments one member may post per minute. */
export const COMMENTS_PER_MINUTE = 5;
export const ITEM_STATE_MAX_IDS = 100;
export const QUEUE_MAX_ITEMS = 200;
/** Positions one sync may carry (the browser keeps 100 resume points). */
export const POSITIONS_MAX = 100;

/** The member's calls (under /api/user, access "user"); comments are read publicly. */
export const libraryPaths = {
  favorite: "/api/user/favorite",
  unfavorite: "/api/user/unfavorite",
  like: "/api/user/like",
  unlike: "/api/user/unlike",
  download: "/api/user/download",
  favorites: "/api/user/favorites",
  downloads: "/api/user/downloads",
  itemState: "/api/user/item-state",
  comment: "/api/user/comment",
  deleteComment: "/api/user/comment/delete",
  comments: "/api/forntend/comments",
  player: "/api/user/player",
  playerPositions: "/api/user/player/positions",
  playerQueue: "/api/user/player/queue",
} as const;

/** The source-site code of our own catalogue: anything else came from (and downloads at) another site. */
export const LOCAL_SITE_CODE = "local";
