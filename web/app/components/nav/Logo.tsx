import { Link } from "react-router";
import { useSiteSettings } from "../../lib/site-settings";

/** Site mark: a vinyl record in the brand gradient (inline SVG, no extra request). */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <defs>
        <linearGradient id="dj-logo" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7c3aed" />
          <stop offset="1" stopColor="#ec4899" />
        </linearGradient>
      </defs>
      <circle cx="16" cy="16" r="15" fill="url(#dj-logo)" />
      <circle cx="16" cy="16" r="10" fill="none" stroke="rgba(255,255,255,0.35)" strokeWidth="1" />
      <circle cx="16" cy="16" r="6.5" fill="none" stroke="rgba(255,255,255,0.35)" strokeWidth="1" />
      <circle cx="16" cy="16" r="3" fill="#15121f" />
    </svg>
  );
}

/**
 * The navbar's brand, a link home: the mark and the site title of the back office's settings
 * (站点设置), read from the public layout's loader, so renaming the site renames it (ADR 0066).
 */
export function SiteBrand({ className, nameClassName }: { className?: string; nameClassName?: string }) {
  const { title } = useSiteSettings();
  return (
    <Link to="/" className={className} aria-label={title}>
      <Logo />
      <span className={nameClassName}>{title}</span>
    </Link>
  );
}
