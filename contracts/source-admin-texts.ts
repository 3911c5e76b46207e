/**
 * The sources screen's per-source timeout (issue 12), shared by the server's schema
 * (source-admin.ts) and the browser's form (no zod here: the CSP would refuse its probe).
 */

/** An admin's per-source timeout (ms): one request to the source and the search's wait for it. */
export const SOURCE_TIMEOUT_MIN_MS = 500;
export const SOURCE_TIMEOUT_MAX_MS = 30_000;
export const sourceTimeoutMessage = "超时须为 500 到 30000 之间的整数毫秒";
