import { adminMessages } from "@contracts/admin-texts";
import { ADMIN_TOKEN_KEY } from "../session/keys";
import { useSession } from "../session/store";
import { ApiUnavailableError, type Envelope, sendJson } from "./api";
import { callsInFlight, LOGOUT_WAITS_FOR_CALLS_MS } from "./calls-in-flight";

/**
 * Calls of the back office: the admin token (localStorage `admin_token`) as a bearer token,
 * JSON or multipart bodies, the envelope back — or a table's `{total, rows}` (ADMIN-API.md).
 * A lost admin session (401, or 403 管理员账号已被禁用) clears the token and goes to
 * /panda/login; an editor refused a super call (403 需要超级管理员权限) stays signed in; the
 * first-start account (403 请先修改初始密码) stays signed in and the layout asks for a new password.
 */
export type AdminCallBody = Record<string, unknown> | FormData | undefined;

let goToAdminLogin: () => void = () => window.location.assign("/panda/login");

export function setAdminAuthFailureNavigator(navigate: () => void) {
  goToAdminLogin = navigate;
}

export function storedAdminToken(): string | null {
  return typeof window === "undefined" ? null : window.localStorage.getItem(ADMIN_TOKEN_KEY);
}

function adminSessionLost() {
  window.localStorage.removeItem(ADMIN_TOKEN_KEY);
  useSession.getState().setAdmin(null);
  goToAdminLogin();
}

/** Admin calls sent with the token and not yet answered: the logout waits for them (calls-in-flight.ts). */
const adminCalls = callsInFlight();

/** Resolves once the admin calls sent so far are answered (at most LOGOUT_WAITS_FOR_CALLS_MS). */
export function adminCallsAnswered(): Promise<void> {
  return adminCalls.settled(LOGOUT_WAITS_FOR_CALLS_MS);
}

async function send(method: string, path: string, body: AdminCallBody, anonymous: boolean): Promise<unknown> {
  const token = storedAdminToken();
  if (!token && !anonymous) throw new ApiUnavailableError("not signed in");
  const sending = sendJson(method, path, body, token);
  const { status, json } = await (token && !anonymous ? adminCalls.track(sending) : sending);
  const msg = (json as { msg?: unknown }).msg;
  if (!anonymous && token && (status === 401 || (status === 403 && msg === adminMessages.accountDisabled))) {
    adminSessionLost();
  }
  if (!anonymous && status === 403 && msg === adminMessages.mustChangePassword) {
    const admin = useSession.getState().admin;
    if (admin && !admin.mustChangePassword) useSession.getState().setAdmin({ ...admin, mustChangePassword: true });
  }
  return json;
}

/** One admin call: the envelope (code 1 or 0 with its msg); rejects with ApiUnavailableError on a network failure. */
export async function adminCall<T>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: AdminCallBody,
  opts: { anonymous?: boolean } = {},
): Promise<Envelope<T>> {
  return (await send(method, path, body, opts.anonymous ?? false)) as Envelope<T>;
}

/** A table's page (`{total, rows}`), or the error envelope's message thrown as an Error. */
export async function adminTablePage<Row>(
  path: string,
  query: Record<string, string | number | undefined>,
): Promise<{ total: number; rows: Row[]; capped: boolean }> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const json = (await send("GET", `${path}?${params}`, undefined, false)) as {
    total?: number;
    rows?: Row[];
    capped?: boolean;
    code?: number;
    msg?: string;
    data?: { total: number; rows: Row[]; capped?: boolean };
  };
  // Some tables answer the bare `{total, rows}` (the original's AJAX answer), others inside the envelope.
  const table = Array.isArray(json.rows) ? json : json.code === 1 ? json.data : undefined;
  if (!table || !Array.isArray(table.rows)) throw new Error(json.msg || "获取数据失败");
  // `capped`: a keyword matched more rows than the server counted; `total` is its cap.
  return { total: Number(table.total ?? 0), rows: table.rows, capped: table.capped === true };
}

/** The name a `Content-Disposition` gives a download: its UTF-8 form (RFC 5987) when there is one. */
export function downloadName(disposition: string | null, fallback: string): string {
  const utf8 = /filename\*=UTF-8''([^;]+)/iu.exec(disposition ?? "");
  if (utf8) {
    try {
      return decodeURIComponent(utf8[1]!);
    } catch {
      // a malformed name: the plain one below
    }
  }
  return /filename="([^"]+)"/iu.exec(disposition ?? "")?.[1] ?? fallback;
}

/**
 * A file of the back office (a CSV export) with the admin token, saved under the server's name.
 * A refusal (its envelope's msg) is thrown as an Error.
 */
export async function adminDownload(path: string, query: Record<string, string | number | undefined>, fallbackName: string): Promise<string> {
  const token = storedAdminToken();
  if (!token) throw new ApiUnavailableError("not signed in");
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const response = await fetch(`${path}?${params}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) {
    const json = (await response.json().catch(() => ({}))) as { msg?: string };
    if (response.status === 401) adminSessionLost();
    throw new Error(json.msg || `HTTP ${response.status}`);
  }
  const name = downloadName(response.headers.get("content-disposition"), fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}
