import type { CheerioAPI } from "cheerio";
import { loadPage } from "../parsers/html.js";
import type { FieldName, HtmlExtract, HtmlField, JsonExtract, JsonField } from "./generic-config.js";

/**
 * Reading what a generic config names: HTML through cheerio, JSON by dotted paths. Values come
 * out as the site wrote them (text, whitespace collapsed); the adapter normalises.
 */

export type Fields = Partial<Record<FieldName, string>>;

export interface Extracted {
  items: { fields: Fields; raw: Record<string, unknown> }[];
  hasMore: boolean;
  total?: number;
  /** HTML only: false when `emptyWhen` is set, nothing was found and none of its markers is on the page. */
  recognised: boolean;
  tracklist: string[];
}

const squeeze = (text: string) => text.replace(/\s+/gu, " ").trim();

function finish(value: string | undefined, field: { regex?: string; template?: string }, vars: Record<string, string> = {}): string | undefined {
  if (value === undefined) return undefined;
  let result = value;
  if (field.regex) {
    const match = new RegExp(fillVars(field.regex, vars), "u").exec(result);
    if (!match) return undefined;
    result = match[1] ?? match[0];
  }
  if (field.template && !/^https?:/iu.test(result)) result = field.template.replace(/\{value\}/gu, result);
  return result;
}

/** `{nextPage}`-style variables in a regex or template, escaped for the regex. */
function fillVars(pattern: string, vars: Record<string, string>): string {
  return pattern.replace(/\{(\w+)\}/gu, (whole, name: string) => (name in vars ? vars[name]!.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&") : whole));
}

type Selection = ReturnType<CheerioAPI>;

function htmlValue($: CheerioAPI, scope: Selection, field: HtmlField, vars?: Record<string, string>): string | undefined {
  const elements = field.selector ? scope.find(field.selector).addBack(field.selector) : scope;
  const attrs = field.attr === undefined ? [] : Array.isArray(field.attr) ? field.attr : [field.attr];
  // The first element whose value passes the regex: a selector like `script` matches many.
  for (const element of elements.toArray()) {
    const node = $(element);
    const written = attrs.length === 0 ? node.text() : attrs.map((name) => node.attr(name)).find((v) => v !== undefined && v !== "");
    const value = finish(written === undefined ? undefined : squeeze(written), field, vars);
    if (value !== undefined && value !== "") return value;
  }
  return undefined;
}

export function extractHtml(html: string, extract: HtmlExtract, vars: Record<string, string>): Extracted {
  const $ = loadPage(html);
  const root = $.root();
  const scopes = extract.items ? root.find(extract.items).toArray().map((e) => $(e)) : [root];
  const items = scopes.map((scope) => {
    const fields: Fields = {};
    for (const [name, field] of Object.entries(extract.fields) as [FieldName, HtmlField][]) {
      const value = htmlValue($, scope, field, vars);
      if (value !== undefined) fields[name] = value;
    }
    return { fields, raw: { ...fields } as Record<string, unknown> };
  });
  const hasMore = extract.nextPage ? htmlValue($, root, extract.nextPage, vars) !== undefined : false;
  const found = items.some((i) => i.fields.id && i.fields.title);
  const body = $("body").text();
  const recognised =
    found ||
    !extract.emptyWhen ||
    extract.emptyWhen.selectors.some((s) => $(s).length > 0) ||
    extract.emptyWhen.texts.some((t) => body.includes(t));
  const tracklist = extract.tracklist ? $(extract.tracklist).toArray().map((e) => squeeze($(e).text())).filter(Boolean) : [];
  return { items, hasMore, recognised, tracklist };
}

/** Every value at a dotted path; `[]` steps into each element of an array. */
export function valuesAt(value: unknown, path: string): unknown[] {
  let current: unknown[] = [value];
  for (const step of path.split(".").filter(Boolean)) {
    const each = step.endsWith("[]");
    const key = each ? step.slice(0, -2) : step;
    current = current.flatMap((v) => {
      const next = key === "" ? v : v !== null && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;
      if (each) return Array.isArray(next) ? next : [];
      return next === undefined ? [] : [next];
    });
  }
  return current;
}

function jsonValue(value: unknown, field: JsonField): string | undefined {
  for (const found of valuesAt(value, field.path)) {
    if (typeof found !== "string" && typeof found !== "number" && typeof found !== "boolean") continue;
    const result = finish(String(found).trim(), field);
    if (result !== undefined && result !== "") return result;
  }
  return undefined;
}

export function extractJson(value: unknown, extract: JsonExtract): Extracted {
  const scopes = extract.items ? valuesAt(value, extract.items).flatMap((v) => (Array.isArray(v) ? v : [v])) : [value];
  const items = scopes.map((scope) => {
    const fields: Fields = {};
    for (const [name, field] of Object.entries(extract.fields) as [FieldName, JsonField][]) {
      const found = jsonValue(scope, field);
      if (found !== undefined) fields[name] = found;
    }
    // JSON items keep the whole object the site sent.
    return { fields, raw: scope !== null && typeof scope === "object" ? (scope as Record<string, unknown>) : { value: scope } };
  });
  const total = extract.total ? Number(valuesAt(value, extract.total)[0]) : NaN;
  const hasMore = extract.hasMore ? Boolean(valuesAt(value, extract.hasMore)[0]) : false;
  return { items, hasMore, recognised: true, tracklist: [], ...(Number.isFinite(total) ? { total } : {}) };
}
