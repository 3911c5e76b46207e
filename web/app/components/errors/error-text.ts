import { errorPageTexts } from "@contracts/messages";
import { isRouteErrorResponse } from "react-router";

/** Texts of the spec's error pages (section 2), kept letter for letter (contracts/messages.ts). */
export const NOT_FOUND_TEXT = errorPageTexts.notFound;
export const GENERIC_ERROR_TEXT = errorPageTexts.generic;
export const BACK_HOME_TEXT = errorPageTexts.backHome;
export const ERROR_PAGE_FAILED_TEXT = errorPageTexts.pageFailed;
export const GO_BACK_HOME_TEXT = errorPageTexts.goBackHome;
/** Before the request id on a 5xx page (the same words as the early-error page's, ADR 0044). */
export const REQUEST_ID_LABEL = "请求编号：";

/** Status and message to show for anything a route threw. */
export function describeError(error: unknown): { status: number; message: string } {
  if (isRouteErrorResponse(error)) {
    const custom = typeof error.data === "string" && error.data.trim() ? error.data : null;
    return {
      status: error.status,
      message: custom ?? (error.status === 404 ? NOT_FOUND_TEXT : GENERIC_ERROR_TEXT),
    };
  }
  return { status: 500, message: GENERIC_ERROR_TEXT };
}

/** Spec section 8, "Home load": the home page's texts by status, and when no answer came. */
export const HOME_LOAD_TEXTS = {
  404: "页面未找到",
  403: "没有访问权限",
  500: "服务器内部错误",
  other: "服务器错误",
  network: "网络连接失败，请检查您的网络连接",
} as const;

/**
 * What the home page shows when loading it failed: the spec's text for 404/403/500, the
 * server's message (or 服务器错误) for other statuses, and the network text when the browser
 * got no answer at all (status 0).
 */
export function describeHomeLoadError(error: unknown): { status: number; message: string } {
  if (!isRouteErrorResponse(error)) return { status: 0, message: HOME_LOAD_TEXTS.network };
  const fixed = HOME_LOAD_TEXTS[error.status as 404 | 403 | 500];
  if (fixed) return { status: error.status, message: fixed };
  const custom = typeof error.data === "string" && error.data.trim() ? error.data : null;
  return { status: error.status, message: custom ?? HOME_LOAD_TEXTS.other };
}
