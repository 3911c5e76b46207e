/**
 * Draws the installable site's icons (ADR 0066) from the site's own mark (public/favicon.svg:
 * a vinyl record in the brand gradient) into public/icons/, as PNG:
 *   icon-192.png, icon-512.png       the mark on a transparent ground ("any")
 *   icon-maskable-512.png            the mark inside the safe circle (80 %) on the navbar's dark
 *                                    ground, for launchers that crop icons to their own shape
 *   apple-touch-icon.png (180)       iOS home screen: no transparency, the dark ground
 *
 *   npx tsx scripts/pwa-icons.ts
 *
 * The PNGs are committed; run this again only when the mark changes.
 */
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { colors } from "../web/app/theme";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = path.join(root, "public", "icons");

/** The mark's 32×32 drawing, without its <svg> wrapper, to place it on a ground. */
async function markBody(): Promise<string> {
  const svg = await readFile(path.join(root, "public", "favicon.svg"), "utf8");
  const body = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(svg)?.[1];
  if (!body) throw new Error("public/favicon.svg: no <svg> body");
  return body;
}

/** The mark scaled to `markShare` of a square of `size`, centred, over an optional ground. */
function iconSvg(body: string, size: number, markShare: number, ground?: string): string {
  const mark = size * markShare;
  const offset = (size - mark) / 2;
  const scale = mark / 32;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    (ground ? `<rect width="${size}" height="${size}" fill="${ground}"/>` : "") +
    `<g transform="translate(${offset} ${offset}) scale(${scale})">${body}</g></svg>`
  );
}

async function main() {
  const body = await markBody();
  await mkdir(out, { recursive: true });
  const icons: [string, number, number, string | undefined][] = [
    ["icon-192.png", 192, 1, undefined],
    ["icon-512.png", 512, 1, undefined],
    // The safe zone is a circle of 40 % radius: a disc of 72 % stays whole under any mask.
    ["icon-maskable-512.png", 512, 0.72, colors.chrome],
    ["apple-touch-icon.png", 180, 0.8, colors.chrome],
  ];
  for (const [name, size, share, ground] of icons) {
    await sharp(Buffer.from(iconSvg(body, size, share, ground)))
      .png({ compressionLevel: 9, palette: true, quality: 90 })
      .toFile(path.join(out, name));
    console.log(`public/icons/${name}`);
  }
}

await main();
