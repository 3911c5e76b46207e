/**
 * busboy's errors for a malformed multipart body: no boundary, an empty or over-long one (its
 * search needle), data cut short. They are plain Errors without a status, so they would pass
 * for ours (500): they are the client's (ADR 0043).
 */
const MALFORMED_MULTIPART = /^(?:Multipart: Boundary not found|Boundary required|The needle cannot|Unexpected end of multipart data|\w+ terminated early)/;

/** The HTTP status an error from reading a multipart upload deserves: its own, 400 for a malformed body, else 500. */
export function multipartErrorStatus(err: unknown): number {
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === "number") return status;
  return err instanceof Error && MALFORMED_MULTIPART.test(err.message) ? 400 : 500;
}
