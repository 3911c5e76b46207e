import glyphs from "./glyphs.module.css";

// Inline icons: a few paths cost less than an icon font and need no extra request.
const PATHS = {
  play: "M8 5.5v13l11-6.5z",
  pause: "M7 5h3.5v14H7zm6.5 0H17v14h-3.5z",
  previous: "M6 6h2v12H6zm3.5 6L18 18V6z",
  next: "M16 6h2v12h-2zM6 18l8.5-6L6 6z",
  volume: "M4 9.5v5h3.5L12 19V5L7.5 9.5zm11.5 2.5a4 4 0 0 0-2.2-3.6v7.2a4 4 0 0 0 2.2-3.6zM13.3 4.3v2.1a6 6 0 0 1 0 11.2v2.1a8 8 0 0 0 0-15.4z",
  muted: "M4 9.5v5h3.5L12 19V5L7.5 9.5zm12.6 2.5 2.4-2.4-1.1-1.1-2.4 2.4-2.4-2.4-1.1 1.1 2.4 2.4-2.4 2.4 1.1 1.1 2.4-2.4 2.4 2.4 1.1-1.1z",
  list: "M4 6h12v2H4zm0 5h12v2H4zm0 5h8v2H4zm14-3v-7h2v9.2a2.5 2.5 0 1 1-2-2.45z",
  close: "M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z",
  minimise: "M5 17h14v2H5z",
  restore: "M5 5h14v14H5zm2 4v8h10V9z",
  eye: "M12 5C6.5 5 2.7 9.4 1.5 12c1.2 2.6 5 7 10.5 7s9.3-4.4 10.5-7C21.3 9.4 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-7a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z",
  eyeOff: "M3.3 2 2 3.3l3.2 3.2C3.4 7.9 2.2 9.9 1.5 12c1.2 2.6 5 7 10.5 7 1.9 0 3.6-.5 5-1.3l3.7 3.7 1.3-1.3zM12 16.5A4.5 4.5 0 0 1 7.5 12c0-.8.2-1.5.6-2.2l1.5 1.5a2.5 2.5 0 0 0 3.1 3.1l1.5 1.5c-.7.4-1.4.6-2.2.6zM12 5c-1.3 0-2.5.2-3.6.6l2 2c.5-.1 1-.1 1.6-.1a4.5 4.5 0 0 1 4.5 4.5c0 .5 0 1.1-.1 1.6l3.1 3.1c1.4-1.3 2.4-2.8 3-4.2C21.3 9.4 17.5 5 12 5z",
  up: "M12 7.6 5.3 14.3l1.4 1.4L12 10.4l5.3 5.3 1.4-1.4z",
  down: "M12 16.4 5.3 9.7l1.4-1.4 5.3 5.3 5.3-5.3 1.4 1.4z",
  fullscreen: "M5 5h5v2H7v3H5zm9 0h5v5h-2V7h-3zM5 14h2v3h3v2H5zm12 0h2v5h-5v-2h3z",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path fill="currentColor" d={PATHS[name]} />
    </svg>
  );
}

export type GlyphName = "play" | "pause" | "heart" | "heartOutline";

/** A 16 px icon of a list row, drawn by the stylesheet (glyphs.module.css): one element, no SVG. */
export function Glyph({ name }: { name: GlyphName }) {
  return <span className={`${glyphs.glyph} ${glyphs[name]}`} aria-hidden="true" />;
}
