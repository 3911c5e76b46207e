/** The one envelope of every `/api/*` answer (DESIGN.md): code 1 is success. */
export interface Envelope<T> {
  code: number;
  msg: string;
  time?: number;
  data: T;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * GET an API path with an optional bearer token. Resolves to the envelope, or null when the
 * server did not answer with one (404 before an API exists, HTML error pages...).
 * Rejects only on network failure.
 */
export async function apiGet<T>(
  path: string,
  token: string | null,
  fetchImpl: FetchLike = fetch,
): Promise<Envelope<T> | null> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetchImpl(path, { headers });
  if (!(response.headers.get("content-type") ?? "").includes("json")) return null;
  try {
    return (await response.json()) as Envelope<T>;
  } catch {
    return null;
  }
}

/** The network failed, or the answer was not JSON: callers show their …失败，请稍后重试. */
export class ApiUnavailableError extends Error {}

/**
 * One JSON call with an optional bearer token: a JSON or multipart body, the status and the
 * parsed JSON back. Rejects with ApiUnavailableError on a network failure or a non-JSON answer.
 * The member and admin clients (user-api.ts, admin-api.ts) add what a lost session means.
 */
export async function sendJson(
  method: string,
  path: string,
  body: Record<string, unknown> | FormData | undefined,
  token: string | null,
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: payload });
  } catch (err) {
    throw new ApiUnavailableError(String(err));
  }
  if (!(response.headers.get("content-type") ?? "").includes("json")) throw new ApiUnavailableError(`HTTP ${response.status}`);
  try {
    return { status: response.status, json: await response.json() };
  } catch {
    throw new ApiUnavailableError("bad JSON");
  }
}
