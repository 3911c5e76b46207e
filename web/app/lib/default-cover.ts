import { DEFAULT_COVER } from "@contracts/player-texts";
import type { SyntheticEvent } from "react";

/**
 * `onError` of a cover image: a cover that fails to load (a source site's host out of reach, an
 * `http:` address the CSP refuses) shows the default cover instead of a broken image.
 */
export function showDefaultCover(event: SyntheticEvent<HTMLImageElement>) {
  const img = event.currentTarget;
  if (!img.src.endsWith(DEFAULT_COVER)) img.src = DEFAULT_COVER;
}
