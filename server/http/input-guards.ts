import { serverMessages } from "@contracts/messages";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors.js";

/** How deep the check walks a body (the JSON parser accepts any depth; our bodies are a few levels). */
const MAX_DEPTH = 32;

/** Whether a decoded value holds a NUL character anywhere (strings, keys, arrays, plain objects). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return false;
  return Object.entries(value).some(([k, v]) => k.includes("\u0000") || containsNul(v, depth + 1));
}

const API = /^\/(?:api|pandaadmin)\//;

/**
 * PostgreSQL text cannot hold a NUL character: one that reached a query was a 500 (found by the
 * fuzz, ADR 0043). No field of the site has a use for it, so an API request carrying one in its
 * query, path parameters or JSON body is refused here: 400 请求内容包含无效字符. It runs after
 * validation (preHandler), so a field whose contract already refuses control characters keeps
 * its own message (搜索关键词包含无效字符); pages and media answer odd paths their own way.
 */
export function registerNulGuard(app: FastifyInstance) {
  app.addHook("preHandler", async (request) => {
    if (!API.test(request.routeOptions.url ?? "")) return;
    if (containsNul(request.query) || containsNul(request.params) || containsNul(request.body)) {
      throw new AppError(400, serverMessages.nulCharacter);
    }
  });
}
