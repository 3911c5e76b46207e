/**
 * Media routes: `mediaDir` at /media/* (demo and local catalogue media) and `uploadsDir` at
 * /uploads/* (user and admin uploads), both with HTTP Range and traversal-proof paths.
 */
import { mkdir, realpath } from "node:fs/promises";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { declareAccess } from "../../http/auth.js";
import type { LongStreams } from "../../http/graceful-shutdown.js";
import { sendMediaError } from "./media-error.js";
import { resolveInside } from "./safe-path.js";
import { serveFile } from "./serve-file.js";

export interface MediaRoutesOptions {
  mediaDir: string;
  uploadsDir: string;
  /** Where media responses are followed, so shutdown can bound them (default: not followed). */
  streams?: LongStreams;
}

interface Mount {
  prefix: string;
  dir: string;
  cacheControl: string;
}

const MOUNTS = (o: MediaRoutesOptions): Mount[] => [
  // Demo and catalogue media rarely change; validators make revalidation cheap anyway.
  { prefix: "/media/", dir: o.mediaDir, cacheControl: "public, max-age=86400" },
  // An upload may be replaced under the same name (an edited cover): revalidate sooner.
  { prefix: "/uploads/", dir: o.uploadsDir, cacheControl: "public, max-age=3600" },
];

export const mediaRoutes: FastifyPluginAsync<MediaRoutesOptions> = async (app, opts) => {
  // Media and uploads are public files (a paid download is a signed link: accounts issue).
  declareAccess(app, "public");
  for (const mount of MOUNTS(opts)) {
    await mkdir(mount.dir, { recursive: true });
    const rootReal = await realpath(mount.dir);
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      // The raw URL, not the router's decoded wildcard: each segment is decoded exactly once.
      const raw = request.raw.url ?? "";
      const q = raw.indexOf("?");
      const path = q < 0 ? raw : raw.slice(0, q);
      if (!path.startsWith(mount.prefix)) return sendMediaError(reply, 404);
      const resolved = await resolveInside(rootReal, path.slice(mount.prefix.length));
      if (!resolved.ok) {
        return sendMediaError(reply.header("x-content-type-options", "nosniff"), resolved.status);
      }
      opts.streams?.track(reply.raw);
      try {
        return await serveFile(request, reply, resolved.file, { cacheControl: mount.cacheControl });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return sendMediaError(reply, 404);
        if (code === "EACCES" || code === "EPERM") return sendMediaError(reply, 403);
        throw err;
      }
    };
    // Never compressed: a file is one representation, with one strong ETag and byte ranges of
    // exactly its bytes (media are compressed already; a compressed SVG would need its own tag).
    app.route({ method: ["GET", "HEAD"], url: `${mount.prefix}*`, exposeHeadRoute: false, compress: false, handler });
  }
};
