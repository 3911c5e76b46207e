/**
 * What we serve and how. Only media and images are shown inline; anything else (HTML, JS,
 * text, archives…) goes out as an opaque download, so an uploaded file can never run as a
 * page or script on our origin.
 */
const INLINE_TYPES: Record<string, string> = {
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  flac: "audio/flac",
  weba: "audio/webm",
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  m3u8: "application/vnd.apple.mpegurl",
  ts: "video/mp2t",
  m4s: "video/iso.segment",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  // SVG can carry script; every response of ours also gets a sandboxing CSP (see serve-file.ts).
  svg: "image/svg+xml",
};

export interface ContentPolicy {
  type: string;
  /** false: sent as application/octet-stream with Content-Disposition: attachment. */
  inline: boolean;
}

export function contentPolicy(fileName: string): ContentPolicy {
  const dot = fileName.lastIndexOf(".");
  const ext = dot < 0 ? "" : fileName.slice(dot + 1).toLowerCase();
  const type = INLINE_TYPES[ext];
  return type ? { type, inline: true } : { type: "application/octet-stream", inline: false };
}

/** The MIME type a media file is served with (for catalogue rows). */
export function mimeTypeOf(fileName: string): string {
  return contentPolicy(fileName).type;
}
