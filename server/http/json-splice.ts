import type { z } from "zod";

const encoded = new WeakMap<object, string>();

/**
 * JSON of an object that services hand out again and again (cached charts side, cached home
 * data): checked against its schema and serialized once per object, not once per request.
 * Serializing the ~50 KB `side` was most of a category page's response time.
 */
export function reusedJson(value: object, schema: z.ZodType): string {
  let json = encoded.get(value);
  if (json === undefined) {
    json = JSON.stringify(schema.encode(value));
    encoded.set(value, json);
  }
  return json;
}

/** `fields` checked against `schema` and serialized, with already serialized members appended. */
export function jsonWith(fields: object, schema: z.ZodType, members: Record<string, string>): string {
  const head = JSON.stringify(schema.encode(fields));
  const tail = Object.entries(members).map(([k, v]) => `${JSON.stringify(k)}:${v}`);
  return head.length > 2 ? `${head.slice(0, -1)},${tail.join(",")}}` : `{${tail.join(",")}}`;
}
