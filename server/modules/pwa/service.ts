import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { SiteSettings } from "@contracts/site";
import { colors } from "../../../web/app/theme";
import { SharedAnswer } from "../../http/shared-answer.js";
import type { SiteSettingsService } from "../site-settings/service.js";

/** The installable site's files (ADR 0066), beside the web app's sources. */
const PWA_DIR = new URL("../../../web/pwa/", import.meta.url);
const read = (name: string) => readFileSync(new URL(name, PWA_DIR), "utf8");

/** Icons drawn by scripts/pwa-icons.ts into public/icons/. */
export const PWA_ICONS = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
] as const;

/** A launcher shows about this many characters under an icon. */
const SHORT_NAME_MAX = 8;

/** The web app manifest of the site: its name is the site title of the settings (站点设置). */
export function webManifest(site: SiteSettings) {
  const chars = [...site.title];
  return {
    id: "/",
    name: site.title,
    short_name: chars.length <= SHORT_NAME_MAX ? site.title : chars.slice(0, SHORT_NAME_MAX).join(""),
    description: site.description,
    lang: "zh-CN",
    dir: "ltr",
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "any",
    theme_color: colors.chrome,
    background_color: colors.page,
    categories: ["music", "entertainment"],
    icons: PWA_ICONS,
  };
}

/**
 * The manifest (made once per settings value: the settings cache hands out the same object
 * until a save drops it), the service worker with its version written in, and the offline
 * page and its script, each as bytes made once, with an ETag.
 */
export function pwaService({ siteSettings }: { siteSettings: Pick<SiteSettingsService, "get"> }) {
  const offlinePage = read("offline.html");
  const offlineScript = read("offline.js");
  const worker = read("sw.js");
  // Any change of the worker or of what it keeps at install is a new version: the browser
  // installs it on the next load and it takes over (the old shell cache is deleted).
  const version = createHash("sha256").update(worker).update(offlinePage).update(offlineScript).digest("hex").slice(0, 16);
  const placeholder = 'const VERSION = "__VERSION__";';
  if (!worker.includes(placeholder)) throw new Error(`web/pwa/sw.js: no ${placeholder}`);
  const files = {
    worker: SharedAnswer.text(worker.replace(placeholder, `const VERSION = "${version}";`), "text/javascript; charset=utf-8"),
    offlinePage: SharedAnswer.text(offlinePage, "text/html; charset=utf-8"),
    offlineScript: SharedAnswer.text(offlineScript, "text/javascript; charset=utf-8"),
  };
  const manifests = new WeakMap<SiteSettings, SharedAnswer>();

  return {
    version,
    ...files,
    async manifest(): Promise<SharedAnswer> {
      const site = await siteSettings.get();
      let answer = manifests.get(site);
      if (!answer) {
        answer = SharedAnswer.text(JSON.stringify(webManifest(site)), "application/manifest+json; charset=utf-8");
        manifests.set(site, answer);
      }
      return answer;
    },
  };
}

export type PwaService = ReturnType<typeof pwaService>;
