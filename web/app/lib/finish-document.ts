import { Transform, type TransformCallback } from "node:stream";

/**
 * The last touches to a server-rendered document, made on the whole of it (the document is
 * rendered completely before it is sent anyway, entry.server.tsx):
 * - the antd styles extracted during rendering go right before `</head>`, so the first paint is
 *   already styled;
 * - the scripts start after the first paint (`deferScripts`).
 */
export class DocumentFinisher extends Transform {
  private readonly chunks: Buffer[] = [];

  constructor(private readonly headHtml: () => string) {
    super();
  }

  _transform(chunk: Buffer | string, _enc: BufferEncoding, callback: TransformCallback) {
    this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    callback();
  }

  _flush(callback: TransformCallback) {
    // Joined as bytes first: a chunk may end inside a multi-byte character.
    callback(null, finishDocument(Buffer.concat(this.chunks).toString(), this.headHtml()));
  }
}

export function finishDocument(html: string, headHtml: string): string {
  const at = html.indexOf("</head>");
  const withStyles = at === -1 ? html : html.slice(0, at) + headHtml + html.slice(at);
  return deferScripts(withStyles);
}

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const MODULE_SCRIPT = /(<script[^>]*type="module"[^>]*>)([\s\S]*?)(<\/script>)/;
const ROUTE_IMPORT = /import \* as (route\d+) from ("[^"]+");\n?/g;

/**
 * React Router puts a modulepreload link for every chunk of the page's routes in <head> (~30,
 * ~185 KB gzip) and imports the route modules statically from its module script, so on a slow
 * mobile link all of that loads ahead of, and competes with, the stylesheet and the first paint
 * (Lighthouse's FCP on the home page: ~3 s). The page is server-rendered and readable without
 * them, so they start after the first frame instead:
 * - the modulepreload links go (each module is still fetched by the import that needs it);
 * - the script's `import * as routeN from "…"` become dynamic imports awaited after a frame,
 *   before the rest of the script (the manifest, the route modules, then the entry) runs.
 * A document whose script does not have that shape is left as it is (it then only loads
 * earlier): the SSR test checks the shape, so a React Router upgrade that changes it is seen.
 */
export function deferScripts(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [whole, open, body, close] = script;
  const routes: { name: string; url: string }[] = [];
  const rest = body.replace(ROUTE_IMPORT, (_m, name: string, url: string) => {
    routes.push({ name, url });
    return "";
  });
  if (routes.length === 0) return html;
  const deferred =
    "await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));\n" +
    `const [${routes.map((r) => r.name).join(", ")}] = await Promise.all([${routes.map((r) => `import(${r.url})`).join(", ")}]);\n`;
  return html.replace(MODULE_PRELOAD, "").replace(whole, () => open + deferred + rest + close);
}
