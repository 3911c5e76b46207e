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
