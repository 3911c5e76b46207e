/**
 * The User-Agent a source's requests carry unless the request says otherwise (a request's own
 * `user-agent` header wins: djuu's app API sends its app's). Every public scraper of these
 * sites sends a browser's; a bot's name is the first thing their firewalls drop (SOURCES.md,
 * "Corrections from independent code"). A current desktop Chrome on Windows: the most common
 * visitor of these sites. Keep the major version near the stable one (ADR 0046).
 */
export const BROWSER_USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/158.0.0.0 Safari/537.36";
