const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  404: "Not Found",
  500: "Internal Server Error",
};

/**
 * An error with an HTTP status that can be thrown while rendering (not only from a loader).
 * It has the shape of React Router's route error responses, so the server renders the error
 * page with this status and the browser sees the same error after hydration.
 */
export class RouteHttpError {
  readonly internal = false;
  readonly statusText: string;
  constructor(
    readonly status: number,
    readonly data: string,
  ) {
    this.statusText = STATUS_TEXT[status] ?? "Error";
  }
}
