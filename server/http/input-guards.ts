import { serverMessages } from "@contracts/messages";
import type { FastifyInstance, preHandlerHookHandler } from "fastify";
import { AppError } from "../errors.js";

/** How deep the check walks a body (the JSON parser accepts any depth; our bodies are a few levels). */
const MAX_DEPTH = 32;

/** String.prototype.isWellFormed's test (ES2024, past this project's lib setting). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A string PostgreSQL cannot store: a NUL, or a lone surrogate (no UTF-8 for it; a JSON column refuses its escape). */
const unstorable = (s: string) => s.includes("\u0000") || LONE_SURROGATE.test(s);

/** Whether a decoded value holds an unstorable string anywhere (strings, keys, arrays, plain objects). */
export function containsUnstorable(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return unstorable(value);
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((v) => containsUnstorable(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return false;
  return Object.entries(value).some(([k, v]) => unstorable(k) || containsUnstorable(v, depth + 1));
}

const API = /^\/(?:api|pandaadmin)\//;

/**
 * PostgreSQL text cannot hold a NUL character, and a JSON column refuses a lone surrogate's
 * escape (`"\ud800"`): either reaching a query was a 500 (found by the fuzz, ADR 0043). No text
 * has a use for them, so an API request carrying one in its query, path parameters or JSON body
 * is refused here: 400 请求内容包含无效字符. It runs after
 * validation (preHandler), so a field whose contract already refuses control characters keeps
 * its own message (搜索关键词包含无效字符); pages and media answer odd paths their own way.
 */
export function registerUnstorableTextGuard(app: FastifyInstance) {
  const guard: preHandlerHookHandler = (request, _reply, done) => {
    if (containsUnstorable(request.query) || containsUnstorable(request.params) || containsUnstorable(request.body)) {
      return done(new AppError(400, serverMessages.nulCharacter));
    }
    done();
  };
  // On the API's routes only (registered after this), first of their own preHandlers: pages do not pay for it.
  app.addHook("onRoute", (route) => {
    if (!API.test(route.url)) return;
    route.preHandler = [guard, ...(route.preHandler ? [route.preHandler].flat() : [])];
  });
}
