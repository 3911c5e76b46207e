/**
 * Texts of the spec's error pages (section 2), letter for letter: the React error page and the
 * server's static page for errors before any route both show them.
 */
export const errorPageTexts = {
  notFound: "This page could not be found",
  generic: "An error occurred",
  backHome: "Back to the home page",
  pageFailed: "An error occurred while showing the error page",
  goBackHome: "Go back to home",
} as const;

/** Generic server-side messages (the spec's own texts live next to the rules that use them). */
export const serverMessages = {
  badRequest: "请求参数错误",
  nulCharacter: "请求内容包含无效字符",
  notFound: "页面未找到",
  apiNotFound: "接口不存在",
  forbidden: "没有访问权限",
  internal: "服务器内部错误",
  tooManyRequests: "请求过于频繁，请稍后再试",
  payloadTooLarge: "上传的内容过大",
  unsupportedMediaType: "不支持的请求格式",
  badAddress: "请求地址无效",
  badHost: "请求的主机名无效",
  headersTooLarge: "请求头过大",
  requestTimeout: "请求超时，请重试",
  fileNotFound: "文件不存在",
  rangeNotSatisfiable: "请求的范围无效",
  preconditionFailed: "文件已变更，请重新请求",
  /** Redis or the database does not answer (restarting, the network cut): try again shortly. */
  serviceUnavailable: "服务暂时不可用，请稍后再试",
} as const;
