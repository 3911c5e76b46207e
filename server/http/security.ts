import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/**
 * Security headers with a Content-Security-Policy the site works under:
 * - scripts: our own files plus a per-request nonce for React Router's inline hydration scripts
 *   (reply.cspNonce.script, passed to the SSR renderer);
 * - styles: antd's CSS-in-JS injects <style> tags at run time, hence 'unsafe-inline';
 * - media: our own files, blob: for hls.js (MediaSource) and https: for source-site streams
 *   resolved at play time; images likewise (source-site covers).
 * Development (Vite HMR) gets no CSP.
 */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { dev: boolean }) {
  await app.register(helmet, {
    enableCSPNonces: !opts.dev,
    contentSecurityPolicy: opts.dev
      ? false
      : {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            baseUri: ["'self'"],
            objectSrc: ["'none'"],
            frameAncestors: ["'self'"],
            formAction: ["'self'"],
            scriptSrc: ["'self'"],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", "data:", "blob:", "https:"],
            mediaSrc: ["'self'", "blob:", "https:"],
            fontSrc: ["'self'", "data:"],
            connectSrc: ["'self'"],
            workerSrc: ["'self'", "blob:"],
          },
        },
    // Covers and media may be embedded from other origins' pages (share cards).
    crossOriginResourcePolicy: { policy: "cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
}
