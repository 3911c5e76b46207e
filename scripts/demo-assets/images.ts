/**
 * Rasterises the designs of image-designs.ts in Debian's Chromium to PNG:
 *   tsx scripts/demo-assets/images.ts OUT_DIR
 * make-demo-assets.sh then converts covers, banners and logos to WebP.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { launchBrowser } from "../../e2e/browser.js";
import { bannerDesigns, coverDesigns, logoDesigns, noImageDesign } from "./image-designs.js";

const outDir = process.argv[2];
if (!outDir) throw new Error("usage: images.ts OUT_DIR");
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const d of [...coverDesigns(20), ...bannerDesigns(), ...logoDesigns(), noImageDesign]) {
    await page.setViewportSize({ width: d.width, height: d.height });
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${d.html}</body></html>`);
    await page.evaluate(() => document.fonts.ready);
    const file = join(outDir, d.file.replace(/\.webp$/, ".png"));
    mkdirSync(dirname(file), { recursive: true });
    await page.screenshot({ path: file, omitBackground: d.transparent ?? false, clip: { x: 0, y: 0, width: d.width, height: d.height } });
    console.log(file);
  }
} finally {
  await browser.close();
}
