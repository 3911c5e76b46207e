import type { SiteSettingsService } from "./modules/site-settings/service.js";

/**
 * main.ts's last start-up line, naming the site by its title in the settings (站点设置, ADR 0066),
 * read once at start (the default when they cannot be read: the server is up all the same).
 */
export async function startupLine(siteSettings: Pick<SiteSettingsService, "title">, publicUrl: string): Promise<string> {
  return `${await siteSettings.title()} is up at ${publicUrl} (Node.js ${process.version})`;
}
