// htmlparser2 (cheerio/slim): about twice as fast as parse5 on a DJ site's 100 KB page, same selectors.
import * as cheerio from "cheerio/slim";
import type { AnyNode, Element } from "domhandler";

/**
 * The host side of the sandbox's cheerio (guest/cheerio.js): documents parsed by the real
 * cheerio in the worker, their nodes named by numbers. Documents live while the plugin's calls
 * that made them run (the instance clears them when none is left), at most MAX_DOCUMENTS at once
 * (the oldest is dropped) with a bounded number of named nodes, so a plugin cannot grow the
 * worker's heap without limit through it.
 */

const MAX_DOCUMENTS = 8;
const MAX_NODES_PER_DOCUMENT = 200_000;
export const MAX_HTML_CHARS = 8 * 1024 * 1024;

interface Document {
  $: cheerio.CheerioAPI;
  nodes: AnyNode[];
  ids: Map<AnyNode, number>;
}

type Walk = "find" | "children" | "contents" | "parent" | "parents" | "closest" | "next" | "prev" | "nextAll" | "prevAll" | "siblings" | "not" | "has" | "filter";
const WALKS = new Set<Walk>(["find", "children", "contents", "parent", "parents", "closest", "next", "prev", "nextAll", "prevAll", "siblings", "not", "has", "filter"]);

/** A node's own facts: type, tag name, attributes, text. */
function basicOf(node: AnyNode): [string, string | null, Record<string, string> | null, string | null] {
  const element = node as Element;
  return [node.type, "name" in element ? element.name : null, "attribs" in element ? element.attribs : null, "data" in node ? (node as { data: string }).data : null];
}

export class DomBridge {
  private readonly documents = new Map<number, Document>();
  private nextDocument = 1;

  private document(id: unknown): Document {
    const doc = this.documents.get(Number(id));
    if (!doc) throw new Error("document no longer available (a parsed page lives as long as the call that loaded it)");
    return doc;
  }

  private idOf(doc: Document, node: AnyNode): number {
    let id = doc.ids.get(node);
    if (id === undefined) {
      if (doc.nodes.length >= MAX_NODES_PER_DOCUMENT) throw new Error("too many nodes selected in one document");
      id = doc.nodes.length;
      doc.nodes.push(node);
      doc.ids.set(node, id);
    }
    return id;
  }

  private nodesOf(doc: Document, ids: unknown): AnyNode[] {
    if (!Array.isArray(ids)) throw new Error("ids must be an array");
    return ids.map((id) => {
      const node = doc.nodes[Number(id)];
      if (!node) throw new Error("unknown node");
      return node;
    });
  }

  /** Parses a document; its number names it from now on (the html comes as is, not as JSON). */
  load(html: string, xml = false): number {
    if (html.length > MAX_HTML_CHARS) throw new Error(`document over ${MAX_HTML_CHARS} characters`);
    const $ = cheerio.load(html, xml ? { xml: true } : undefined);
    const id = this.nextDocument++;
    this.documents.set(id, { $, nodes: [], ids: new Map() });
    if (this.documents.size > MAX_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
    return id;
  }

  /** One operation of guest/cheerio.js; its answer is JSON-safe. */
  run(payload: Record<string, unknown>): unknown {
    switch (payload.op) {
      case "load":
        return this.load(String(payload.html ?? ""), Boolean(payload.xml));
      case "root": {
        const doc = this.document(payload.doc);
        return this.idOf(doc, doc.$.root()[0]!);
      }
      case "walk": {
        const doc = this.document(payload.doc);
        const walk = payload.walk as Walk;
        if (!WALKS.has(walk)) throw new Error("unknown walk");
        const arg = payload.arg === null || payload.arg === undefined ? undefined : String(payload.arg);
        const selection = doc.$(this.nodesOf(doc, payload.ids));
        const walked = (selection[walk] as (selector?: string) => cheerio.Cheerio<AnyNode>).call(selection, arg as string);
        // Each node's own facts come along (one call instead of one more per `.attr()`).
        const nodes = walked.toArray();
        return { ids: nodes.map((node) => this.idOf(doc, node)), basics: nodes.map((node) => basicOf(node)) };
      }
      case "is": {
        const doc = this.document(payload.doc);
        return doc.$(this.nodesOf(doc, payload.ids)).is(String(payload.arg));
      }
      case "text": {
        const doc = this.document(payload.doc);
        return doc.$(this.nodesOf(doc, payload.ids)).text();
      }
      case "html": {
        const doc = this.document(payload.doc);
        const selection = doc.$(this.nodesOf(doc, payload.ids));
        return payload.inner ? (selection.html() ?? "") : doc.$.html(selection);
      }
      case "index": {
        const doc = this.document(payload.doc);
        return doc.$(this.nodesOf(doc, [payload.id])).index();
      }
      case "node": {
        const doc = this.document(payload.doc);
        const [node] = this.nodesOf(doc, [payload.id]);
        return this.describe(doc, node!);
      }
      default:
        throw new Error("unknown dom operation");
    }
  }

  private describe(doc: Document, node: AnyNode) {
    const element = node as Element;
    const ref = (n: AnyNode | null | undefined) => (n ? this.idOf(doc, n) : null);
    const [type, name, attribs, data] = basicOf(node);
    return {
      type,
      name,
      attribs,
      data,
      children: "children" in element ? element.children.map((c) => this.idOf(doc, c)) : [],
      parent: ref(node.parent),
      prev: ref(node.prev),
      next: ref(node.next),
    };
  }

  clear(): void {
    this.documents.clear();
  }
}
