// No zod here: the player (browser code) imports this.

export const HLS_MIME_TYPE = "application/vnd.apple.mpegurl";

/**
 * Our source-play route's address says nothing of the format, so a catalogue item collected
 * from a site that streams HLS only (清风DJ) stores it with this hint (ADR 0024): the player
 * then loads it through hls.js without asking anyone. The route ignores the parameter.
 */
export const HLS_HINT = "format=hls";

export const withHlsHint = (url: string) => `${url}${url.includes("?") ? "&" : "?"}${HLS_HINT}`;

/** The address carries the HLS hint of a collected item. */
export const hasHlsHint = (url: string) => /[?&]format=hls(?:&|#|$)/iu.test(url);

/** The address is an HLS playlist: a `.m3u8` path, or a source-play address with the hint. */
export const isHlsAddress = (url: string) => /\.m3u8(?:\?|#|$)/iu.test(url) || hasHlsHint(url);
