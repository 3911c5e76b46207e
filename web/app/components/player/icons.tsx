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
  heart: "M12 20.3 10.6 19C5.4 14.4 2 11.3 2 7.5A4.5 4.5 0 0 1 6.5 3c1.7 0 3.4.8 4.5 2.1A6 6 0 0 1 17.5 3 4.5 4.5 0 0 1 22 7.5c0 3.8-3.4 6.9-8.6 11.5z",
  heartOutline: "M16.5 3c-1.7 0-3.4.8-4.5 2.1A6 6 0 0 0 7.5 3 4.5 4.5 0 0 0 3 7.5c0 3.8 3.4 6.9 8.6 11.5l.4.4.4-.4C17.6 14.4 21 11.3 21 7.5A4.5 4.5 0 0 0 16.5 3zm-4.4 14.6-.1.1-.1-.1C7.1 13.3 4.9 11 4.9 7.5A2.6 2.6 0 0 1 7.5 4.9c1.2 0 2.4.8 2.8 1.8h1.4c.4-1 1.6-1.8 2.8-1.8a2.6 2.6 0 0 1 2.6 2.6c0 3.5-2.2 5.8-5 10.1z",
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
