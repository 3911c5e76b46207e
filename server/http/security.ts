import type { ServerResponse } from "node:http";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import { randomToken } from "../lib/random-token.js";

declare module "fastify" {
  interface FastifyReply {
    /** Nonce for this response's inline scripts; "" when no CSP is sent (development). */
    scriptNonce: string;
  }
}

type NoncedResponse = ServerResponse & { scriptNonce?: string };

/**
 * Security headers with a Content-Security-Policy the site works under:
 * - scripts: our own files plus a per-request nonce for React Router's inline hydration scripts
 *   (reply.scriptNonce, passed to the SSR renderer). Only scripts get a nonce: a style nonce
 *   would make browsers ignore 'unsafe-inline', which antd needs;
 * - styles: antd's CSS-in-JS injects <style> tags at run time, hence 'unsafe-inline';
 * - media: our own files, blob: for hls.js (MediaSource) and https: for source-site streams
 *   resolved at play time; images likewise (source-site covers).
 * Development (Vite HMR) gets no CSP.
 */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { dev: boolean }) {
  app.decorateReply("scriptNonce", "");
  if (!opts.dev) {
    app.addHook("onRequest", async (_request, reply) => {
      const nonce = randomToken(16);
      reply.scriptNonce = nonce;
      (reply.raw as NoncedResponse).scriptNonce = nonce;
    });
  }
  await app.register(helmet, {
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
            scriptSrc: [
              "'self'",
              (_req, res) => `'nonce-${(res as NoncedResponse).scriptNonce ?? ""}'`,
            ],
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
