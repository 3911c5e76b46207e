/**
 * Hostile requests for every operation of the OpenAPI document (ADR 0043). For each operation a
 * plausible request is built from its schemas, then mutated: one field or parameter replaced by a
 * hostile value, a required field dropped, extra fields added, a body that is no JSON object or
 * comes under another content type, a path parameter that is no id. The cases are drawn with a
 * seeded generator, a fixed number per operation, so a run is bounded and repeatable.
 */
import { ALL_HOSTILE, HOSTILE_BODIES, HOSTILE_NUMBERS, HOSTILE_SEGMENTS, HOSTILE_STRINGS, type Random } from "./hostile-values.js";

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  minimum?: number;
  exclusiveMinimum?: boolean | number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  nullable?: boolean;
};

interface Parameter {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** OpenAPI path, `{id}` style. */
  path: string;
  /** Fastify's form of the path (`:id`), to find the route's access level. */
  route: string;
  parameters: Parameter[];
  /** The first content type of the request body and its schema, if the operation takes one. */
  body?: { contentType: string; schema: JsonSchema };
  secured: boolean;
}

export interface FuzzCase {
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema: JsonSchema }> }; security?: unknown[] }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const resolve = refResolver(doc);
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = Object.entries(op.requestBody?.content ?? {})[0];
      ops.push({
        method: method.toUpperCase(),
        path,
        route: path.replace(/\{(\w+)\}/g, ":$1"),
        parameters: (op.parameters ?? []).map((p) => ({ ...p, schema: resolve(p.schema) })),
        body: content ? { contentType: content[0], schema: resolve(content[1].schema) } : undefined,
        secured: Array.isArray(op.security) && op.security.length > 0,
      });
    }
  }
  return ops;
}

/** Inlines `#/components/schemas/…` references (the document shares repeated zod schemas). */
function refResolver(doc: OpenApiDocument) {
  const resolve = (schema: JsonSchema | undefined, depth = 0): JsonSchema => {
    if (!schema || depth > 8) return {};
    if (schema.$ref) return resolve(doc.components?.schemas?.[schema.$ref.split("/").pop()!], depth + 1);
    const out: JsonSchema = { ...schema };
    if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, depth + 1)]));
    if (schema.items) out.items = resolve(schema.items, depth + 1);
    for (const key of ["anyOf", "oneOf", "allOf"] as const) if (schema[key]) out[key] = schema[key]!.map((s) => resolve(s, depth + 1));
    return out;
  };
  return resolve;
}

/** Strings tried, in order, for a pattern the schema names (the first that fits is used). */
const STRING_CANDIDATES = ["1", "local", "0123456789abcdef0123", "abcdefghijklmnop0123", "fuzz@example.cn", "/media/x.mp3", "https://example.cn/a", "1,2", "歌单a"];

/** A value the schema accepts, as far as a simple reading of it goes (the fuzz mutates it anyway). */
export function plausible(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return plausible(variants.find((v) => v.type !== "null") ?? variants[0]!);
  if (schema.allOf?.length) return plausible(Object.assign({}, ...schema.allOf));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "integer":
    case "number": {
      const min = typeof schema.minimum === "number" ? schema.minimum + (schema.exclusiveMinimum === true ? 1 : 0) : 1;
      return Math.min(Math.max(min, 1), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case "boolean":
      return true;
    case "array":
      return Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () => plausible(schema.items ?? {}));
    case "object":
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v)]));
    case "string":
      return plausibleString(schema);
    default:
      return schema.properties ? plausible({ ...schema, type: "object" }) : "1";
  }
}

function plausibleString(schema: JsonSchema): string {
  if (schema.format === "email") return "fuzz@example.cn";
  if (schema.format === "binary") return "file";
  const fits = (s: string) =>
    s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity) && (!schema.pattern || new RegExp(schema.pattern, "u").test(s));
  const found = STRING_CANDIDATES.find(fits);
  if (found) return found;
  return "a".repeat(Math.max(schema.minLength ?? 1, 1));
}

/** Percent-encoding that also sends what encodeURIComponent refuses (a lone surrogate: bytes that are no UTF-8). */
function encodeLoosely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "")) + "%ED%A0%80";
  }
}

/** Query values as a client would put them in the address (arrays repeated, objects bracketed). */
function queryString(values: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (Array.isArray(value)) for (const v of value) add(key, v);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else parts.push(`${encodeURIComponent(key)}=${encodeLoosely(String(value))}`);
  };
  for (const [k, v] of Object.entries(values)) add(k, v);
  return parts.length ? `?${parts.join("&")}` : "";
}

const EXTRA_FIELDS = { id: 1, userId: 1, role: "super", status: 1, isAdmin: true, coins: 99999, "<b>": "x" };

/** A JSON body with one top-level or nested field set to `value` (or removed when undefined). */
function withField(body: Record<string, unknown>, random: Random, value: unknown, dropRequired?: string[]): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = dropRequired?.length ? dropRequired : Object.keys(copy);
  if (!keys.length) return { [random.pick(["x", "id", "__proto__"])]: value };
  const key = random.pick(keys);
  const inner = copy[key];
  // Sometimes one level down: an array element or an object's field.
  if (value !== undefined && inner && typeof inner === "object" && random.next() < 0.4) {
    const innerKeys = Object.keys(inner);
    if (innerKeys.length) (inner as Record<string, unknown>)[random.pick(innerKeys)] = value;
    return copy;
  }
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

/**
 * `count` cases for one operation. Path parameters are filled with `ids` where the route names a
 * row (so a plausible request reaches the handler) unless the case is about the path itself.
 */
export function casesFor(op: Operation, random: Random, count: number, ids: Record<string, string>): FuzzCase[] {
  const pathParams = op.parameters.filter((p) => p.in === "path");
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const fillPath = (override?: [string, string]) =>
    op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      override && override[0] === name ? override[1] : encodeURIComponent(ids[name] ?? String(plausible(pathParams.find((p) => p.name === name)?.schema ?? {}))),
    );
  const plausibleQuery = () => Object.fromEntries(queryParams.filter((p) => p.required || random.next() < 0.5).map((p) => [p.name, plausible(p.schema)]));
  const isJson = op.body?.contentType === "application/json";
  const plausibleBody = () => (isJson ? (plausible(op.body!.schema) as Record<string, unknown>) : undefined);
  const requiredKeys = op.body?.schema.required ?? [];

  const kinds: string[] = ["plausible"];
  if (pathParams.length) kinds.push("path", "path", "path");
  if (queryParams.length) kinds.push("query", "query", "query", "query-all");
  if (isJson) kinds.push("field", "field", "field", "field", "missing", "extra", "all-fields");
  if (op.body || ["POST", "PUT", "PATCH", "DELETE"].includes(op.method)) kinds.push("raw-body", "raw-body", "raw-body");
  if (!op.body && op.method === "GET") kinds.push("unexpected-body");

  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i === 0 ? "plausible" : random.pick(kinds);
    let path = fillPath();
    let query: Record<string, unknown> = plausibleQuery();
    let json: unknown = plausibleBody();
    let raw: { contentType: string | undefined; body: string | Buffer } | undefined;
    switch (kind) {
      case "path": {
        const param = random.pick(pathParams);
        path = fillPath([param.name, random.pick(HOSTILE_SEGMENTS)]);
        break;
      }
      case "query": {
        const param = random.pick(queryParams);
        query[param.name] = random.pick(random.next() < 0.5 ? HOSTILE_STRINGS : [...HOSTILE_NUMBERS, ...ALL_HOSTILE]);
        break;
      }
      case "query-all":
        query = Object.fromEntries(queryParams.map((p) => [p.name, random.pick(ALL_HOSTILE)]));
        break;
      case "field":
        json = withField(json as Record<string, unknown>, random, random.pick(ALL_HOSTILE));
        break;
      case "missing":
        json = withField(json as Record<string, unknown>, random, undefined, requiredKeys);
        break;
      case "extra":
        json = { ...(json as object), ...EXTRA_FIELDS };
        break;
      case "all-fields":
        json = Object.fromEntries(Object.keys(json as object).map((k) => [k, random.pick(ALL_HOSTILE)]));
        break;
      case "raw-body":
        raw = random.pick(HOSTILE_BODIES);
        break;
      case "unexpected-body":
        raw = { contentType: "application/json", body: '{"a":1}' };
        break;
    }
    const headers: Record<string, string> = {};
    let payload: string | Buffer | undefined;
    if (raw) {
      if (raw.contentType) headers["content-type"] = raw.contentType;
      payload = raw.body;
    } else if (isJson && json !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(json);
    }
    cases.push({ kind, method: op.method, url: path + queryString(query), headers, payload });
  }
  return cases;
}
