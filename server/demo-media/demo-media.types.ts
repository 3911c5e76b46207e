/**
 * What the demo catalogue can point at: media files prepared under DATA_DIR/media/demo
 * by prepareDemoMedia() and served by the media routes. URLs are site-relative.
 */
export interface DemoMediaFile {
  url: string;
  durationSec: number;
  mimeType: string;
}

export interface DemoMedia {
  /** A few distinct short DJ-style loops (mp3 and m4a), reused across the catalogue. */
  audio: DemoMediaFile[];
  /** One mix of 60 minutes or more, to exercise seeking. */
  longMix: DemoMediaFile;
  /** One HLS stream (.m3u8). */
  hls: DemoMediaFile;
  /** One mp4 video. */
  video: DemoMediaFile;
  /** Square cover images. */
  covers: string[];
  /** Wide carousel banners (block indexfocus). */
  banners: string[];
  /** Partner logos (block indexweb), one per source site code: djuu, 172minx, vvvdj, local. */
  logos: Record<string, string>;
}
