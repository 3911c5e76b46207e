/**
 * Texts and field rules of the back office's categories, blocks and site settings (issue 12)
 * without zod: the browser's forms import this file (zod object schemas trip the CSP), the
 * server's schemas in admin-content.ts are built from the same constants.
 */

export const categoryTexts = {
  nameRequired: "请输入分类名称",
  nameTooLong: "分类名称最多 30 个字",
  diynameRequired: "请输入分类别名",
  diynameBad: "分类别名只能包含字母、数字、下划线和短横线，以字母或数字开头，最多 50 个字符",
  diynameTaken: "分类别名已被使用",
  sortBad: "排序必须是不小于 0 的整数",
  parentMissing: "上级分类不存在",
  parentCycle: "不能选择自身或其下级分类作为上级分类",
  modelBad: "页面样式只能是 1（推荐样式）或 2（最新样式）",
  seoTooLong: "SEO 内容过长",
  missing: "分类不存在",
  sorted: "排序已保存",
  hasSuites: (n: number) => `该分类下还有 ${n} 首套曲，请先移走或删除这些套曲再删除分类`,
  hasChildren: (n: number) => `该分类下还有 ${n} 个子分类，请先移走或删除子分类再删除分类`,
  created: "添加成功",
  saved: "保存成功",
} as const;

/** A category's slug: the `{diyname}` of /sort/{diyname}, so only URL-safe characters. */
export const CATEGORY_DIYNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/u;
export const CATEGORY_NAME_MAX = 30;
export const SEO_TITLE_MAX = 100;
export const SEO_KEYWORDS_MAX = 200;
export const SEO_DESCRIPTION_MAX = 500;

/** Page styles of a category page (spec: model_id 2 lists latest-style, otherwise recommend-style). */
export const CATEGORY_MODELS = [
  { value: 1, label: "推荐样式（网格）" },
  { value: 2, label: "最新样式（列表）" },
] as const;

export const BLOCK_POSITIONS = [
  { value: "indexfocus", label: "首页焦点图" },
  { value: "indexweb", label: "合作站点" },
] as const;
export type BlockPosition = (typeof BLOCK_POSITIONS)[number]["value"];

export const blockTexts = {
  nameRequired: "请输入区块名称",
  nameTooLong: "区块名称最多 30 个字",
  positionBad: "请选择区块位置",
  sortBad: "排序必须是不小于 0 的整数",
  missing: "区块不存在",
  sorted: "排序已保存",
  sortOtherPosition: "只能在同一位置的区块之间拖动排序",
  itemMissing: "区块内容不存在",
  itemNameRequired: "请输入名称",
  itemNameTooLong: "名称最多 50 个字",
  itemUrlRequired: "请输入链接地址",
  itemUrlBad: "链接地址必须以 http://、https:// 或 / 开头",
  imageRequired: "请上传图片",
  imageBad: "图片地址无效，请重新上传",
  imageMissing: "请选择要上传的图片",
  imageNotImage: "文件不是可用的图片（支持 JPEG/PNG/WebP/GIF/AVIF）",
  imageTooLarge: "图片不能超过 5MB",
  imageFailed: "图片上传失败，请稍后重试",
  uploaded: "上传成功",
  created: "添加成功",
  saved: "保存成功",
  enabled: "启用",
  disabled: "禁用",
} as const;

export const BLOCK_NAME_MAX = 30;
export const BLOCK_ITEM_NAME_MAX = 50;
export const BLOCK_URL_MAX = 500;
export const BLOCK_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** A link: absolute http(s), or a path of this site (never javascript: or //host). */
export const BLOCK_URL_PATTERN = /^(https?:\/\/[^\s\\]+|\/(?![/\\])[^\s\\]*)$/u;

export const siteSettingsTexts = {
  titleRequired: "请输入站点标题",
  titleTooLong: "站点标题最多 60 个字",
  keywordsTooLong: "关键词最多 200 个字",
  descriptionTooLong: "站点描述最多 500 个字",
  footerTooLong: "页脚内容最多 1000 个字",
  partnerTooLong: "合作说明最多 500 个字",
  saved: "保存成功",
} as const;

export const SITE_SETTINGS_LIMITS = { title: 60, keywords: 200, description: 500, footer: 1000, partnerText: 500 } as const;

/** Where the back office's calls live. */
export const adminContentPaths = {
  categoryIndex: "/api/pandaadmin/category/index",
  categoryOptions: "/api/pandaadmin/category/options",
  category: "/api/pandaadmin/category",
  categorySort: "/api/pandaadmin/category/sort",
  blockIndex: "/api/pandaadmin/block/index",
  block: "/api/pandaadmin/block",
  blockSort: "/api/pandaadmin/block/sort",
  blockImage: "/api/pandaadmin/block/image",
  blockItem: "/api/pandaadmin/block-item",
  settings: "/api/pandaadmin/settings",
} as const;
