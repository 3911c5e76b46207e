/** Search messages and limits. Schema-free, so the home page's search box uses the same ones. */
export const searchMessages = {
  keywordRequired: "请输入搜索关键词",
  keywordTooLong: "搜索关键词不能超过50个字符",
  keywordInvalid: "搜索关键词包含无效字符",
  badPage: "页码必须是1到1000之间的整数",
  badPageSize: "每页条数必须是1到50之间的整数",
  badType: "类型只能是mp3或mp4",
  badChannel: "搜索来源不正确",
  badFilter: "筛选条件不正确",
  /** Every selected provider failed (spec section 8 fallback). */
  searchFailed: "搜索失败",
} as const;

export const SEARCH_KEYWORD_MAX = 50;
export const SEARCH_PAGE_MAX = 1000;
export const SEARCH_PAGE_SIZE_MAX = 50;
/** Home search page size and limit (spec section 9). */
export const SEARCH_DEFAULT_PAGE_SIZE = 5;
