import { z } from "zod";

/**
 * The one response envelope of /api/*: code 1 is success, 0 failure; msg is the user-facing
 * Chinese text; time is Unix seconds. Admin tables answer {rows, total} inside data.
 */
export interface ApiEnvelope<T = unknown> {
  code: 0 | 1;
  msg: string;
  time: number;
  data: T;
}

export function ok<T>(data: T, msg = "ok"): ApiEnvelope<T> {
  return { code: 1, msg, time: Math.floor(Date.now() / 1000), data };
}

export function fail(msg: string, data: unknown = null): ApiEnvelope<unknown> {
  return { code: 0, msg, time: Math.floor(Date.now() / 1000), data };
}

/** The envelope's schema around a data schema, for route responses and their OpenAPI docs. */
export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.literal([0, 1]), msg: z.string(), time: z.number(), data });
