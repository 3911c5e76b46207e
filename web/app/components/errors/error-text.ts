import { isRouteErrorResponse } from "react-router";

/** Texts of the spec's error pages (section 2), kept letter for letter. */
export const NOT_FOUND_TEXT = "This page could not be found";
export const GENERIC_ERROR_TEXT = "An error occurred";
export const BACK_HOME_TEXT = "Back to the home page";
export const ERROR_PAGE_FAILED_TEXT = "An error occurred while showing the error page";
export const GO_BACK_HOME_TEXT = "Go back to home";

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
