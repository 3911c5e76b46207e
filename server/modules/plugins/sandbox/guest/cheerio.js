/*
 * `require("cheerio")` inside the sandbox. Parsing and selector matching run on the host's
 * cheerio (native speed, outside the interpreter); the plugin holds numbers that name a document
 * and its nodes, never a host object. The Selection API mirrors the cheerio calls plugins use.
 */
(function (global) {
  "use strict";
  const call = global.__call;
  const dom = (op, payload) => call("dom", { op, ...payload });
  const SELF = Symbol("node");
  // What the host said of each node, per document: `$(el)` makes new Node objects for old nodes.
  // Own facts ([type, name, attribs, data]) arrive with every walk; links (children, parent…) on demand.
  const infos = new Map();
  const known = (doc) => {
    let map = infos.get(doc);
    if (!map) {
      if (infos.size >= 16) infos.delete(infos.keys().next().value);
      map = new Map();
      infos.set(doc, map);
    }
    return map;
  };
  const learn = (doc, ids, basics) => {
    const map = known(doc);
    ids.forEach((id, i) => {
      if (!map.has(id)) map.set(id, { basic: basics[i], links: null });
    });
    return ids;
  };
  const entryOf = (doc, id) => {
    const map = known(doc);
    let entry = map.get(id);
    if (!entry) {
      const full = dom("node", { doc, id });
      entry = { basic: [full.type, full.name, full.attribs, full.data], links: full };
      map.set(id, entry);
    }
    return entry;
  };
  const basicOf = (doc, id) => entryOf(doc, id).basic;
  const linksOf = (doc, id) => {
    const entry = entryOf(doc, id);
    if (!entry.links) entry.links = dom("node", { doc, id });
    return entry.links;
  };

  class Node {
    constructor(doc, id) {
      this[SELF] = { doc, id, info: null };
    }
    _basic() {
      const own = this[SELF];
      return basicOf(own.doc, own.id);
    }
    _info() {
      const own = this[SELF];
      return linksOf(own.doc, own.id);
    }
    _wrap(id) {
      return id === null || id === undefined ? null : new Node(this[SELF].doc, id);
    }
    get type() {
      return this._basic()[0];
    }
    get name() {
      return this._basic()[1] ?? undefined;
    }
    get tagName() {
      return this._basic()[1] ?? undefined;
    }
    get nodeType() {
      return { tag: 1, script: 1, style: 1, text: 3, comment: 8, root: 9 }[this._basic()[0]] ?? 1;
    }
    get attribs() {
      return this._basic()[2] ?? undefined;
    }
    get data() {
      return this._basic()[3] ?? undefined;
    }
    get nodeValue() {
      return this._basic()[3] ?? undefined;
    }
    get children() {
      return this._info().children.map((id) => this._wrap(id));
    }
    get childNodes() {
      return this.children;
    }
    get firstChild() {
      return this._wrap(this._info().children[0]);
    }
    get lastChild() {
      const c = this._info().children;
      return this._wrap(c[c.length - 1]);
    }
    get parent() {
      return this._wrap(this._info().parent);
    }
    get parentNode() {
      return this.parent;
    }
    get next() {
      return this._wrap(this._info().next);
    }
    get nextSibling() {
      return this.next;
    }
    get prev() {
      return this._wrap(this._info().prev);
    }
    get previousSibling() {
      return this.prev;
    }
  }

  function idsOf(doc, value) {
    if (value instanceof Selection) return value._ids;
    if (value instanceof Node) return [value[SELF].id];
    if (Array.isArray(value)) return value.flatMap((v) => idsOf(doc, v));
    return [];
  }

  class Selection {
    constructor(doc, ids, root) {
      this._doc = doc;
      this._ids = ids;
      this._root = root;
      this.length = ids.length;
      for (let i = 0; i < ids.length; i += 1) this[i] = new Node(doc, ids[i]);
    }
    _make(ids) {
      return new Selection(this._doc, ids, this._root);
    }
    _walk(op, arg) {
      const walked = dom("walk", { doc: this._doc, ids: this._ids, walk: op, arg: arg === undefined ? null : String(arg) });
      return this._make(learn(this._doc, walked.ids, walked.basics));
    }
    find(selector) {
      if (typeof selector !== "string") {
        const wanted = new Set(idsOf(this._doc, selector));
        return this._walk("find", "*").filter((_, el) => wanted.has(el[SELF].id));
      }
      return this._walk("find", selector);
    }
    children(selector) {
      return this._walk("children", selector);
    }
    contents() {
      return this._walk("contents");
    }
    parent(selector) {
      return this._walk("parent", selector);
    }
    parents(selector) {
      return this._walk("parents", selector);
    }
    closest(selector) {
      return this._walk("closest", selector);
    }
    next(selector) {
      return this._walk("next", selector);
    }
    prev(selector) {
      return this._walk("prev", selector);
    }
    nextAll(selector) {
      return this._walk("nextAll", selector);
    }
    prevAll(selector) {
      return this._walk("prevAll", selector);
    }
    siblings(selector) {
      return this._walk("siblings", selector);
    }
    not(selector) {
      if (typeof selector === "function") return this.filter((i, el) => !selector.call(el, i, el));
      return this._walk("not", selector);
    }
    has(selector) {
      return this._walk("has", selector);
    }
    filter(selector) {
      if (typeof selector === "function") return this._make(this._ids.filter((id, i) => selector.call(this[i], i, this[i])));
      if (typeof selector !== "string") {
        const wanted = new Set(idsOf(this._doc, selector));
        return this._make(this._ids.filter((id) => wanted.has(id)));
      }
      return this._walk("filter", selector);
    }
    is(selector) {
      if (typeof selector === "function") return this._ids.some((id, i) => selector.call(this[i], i, this[i]));
      return dom("is", { doc: this._doc, ids: this._ids, arg: String(selector) });
    }
    eq(i) {
      const at = i < 0 ? this._ids.length + i : i;
      return this._make(this._ids[at] === undefined ? [] : [this._ids[at]]);
    }
    first() {
      return this.eq(0);
    }
    last() {
      return this.eq(-1);
    }
    slice(start, end) {
      return this._make(this._ids.slice(start, end));
    }
    add(other) {
      return this._make([...new Set([...this._ids, ...idsOf(this._doc, typeof other === "string" ? this._root(other) : other)])]);
    }
    addBack() {
      return this;
    }
    end() {
      return this;
    }
    get(i) {
      if (i === undefined) return this.toArray();
      return this[i < 0 ? this.length + i : i];
    }
    toArray() {
      return Array.from({ length: this.length }, (_, i) => this[i]);
    }
    index() {
      return this.length ? dom("index", { doc: this._doc, id: this._ids[0] }) : -1;
    }
    each(fn) {
      for (let i = 0; i < this.length; i += 1) if (fn.call(this[i], i, this[i]) === false) break;
      return this;
    }
    map(fn) {
      const out = [];
      for (let i = 0; i < this.length; i += 1) {
        const value = fn.call(this[i], i, this[i]);
        if (value === null || value === undefined) continue;
        if (Array.isArray(value)) out.push(...value);
        else out.push(value);
      }
      return new Mapped(out);
    }
    text() {
      return dom("text", { doc: this._doc, ids: this._ids });
    }
    html() {
      return this.length ? dom("html", { doc: this._doc, ids: [this._ids[0]], inner: true }) : null;
    }
    toString() {
      return dom("html", { doc: this._doc, ids: this._ids, inner: false });
    }
    attr(name) {
      if (!this.length) return undefined;
      const attribs = this[0].attribs || {};
      if (name === undefined) return { ...attribs };
      const value = attribs[String(name).toLowerCase()];
      return value === undefined ? undefined : value;
    }
    prop(name) {
      if (!this.length) return undefined;
      if (name === "tagName" || name === "nodeName") return String(this[0].name || "").toUpperCase();
      if (name === "outerHTML") return this.toString();
      if (name === "innerHTML") return this.html();
      if (name === "textContent" || name === "innerText") return this.text();
      return this.attr(name);
    }
    data(name) {
      const attribs = this.length ? this[0].attribs || {} : {};
      const read = (v) => {
        if (v === "true") return true;
        if (v === "false") return false;
        if (v !== "" && !Number.isNaN(Number(v)) && String(Number(v)) === v) return Number(v);
        if (/^[[{]/u.test(v)) {
          try {
            return JSON.parse(v);
          } catch {
            return v;
          }
        }
        return v;
      };
      const camel = (k) => k.replace(/-([a-z])/gu, (_, c) => c.toUpperCase());
      if (name === undefined) {
        const out = {};
        for (const key of Object.keys(attribs)) if (key.startsWith("data-")) out[camel(key.slice(5))] = read(attribs[key]);
        return out;
      }
      const key = "data-" + String(name).replace(/[A-Z]/gu, (c) => "-" + c.toLowerCase());
      return attribs[key] === undefined ? undefined : read(attribs[key]);
    }
    val() {
      return this.attr("value");
    }
    hasClass(name) {
      return this._ids.some((_, i) => ` ${(this[i].attribs || {}).class || ""} `.replace(/\s+/gu, " ").includes(` ${name} `));
    }
  }

  class Mapped {
    constructor(values) {
      this._values = values;
      this.length = values.length;
      values.forEach((v, i) => (this[i] = v));
    }
    get(i) {
      return i === undefined ? this._values.slice() : this._values[i < 0 ? this.length + i : i];
    }
    toArray() {
      return this._values.slice();
    }
    filter(fn) {
      return new Mapped(this._values.filter((v, i) => fn.call(v, i, v)));
    }
    each(fn) {
      this._values.forEach((v, i) => fn.call(v, i, v));
      return this;
    }
    join(separator) {
      return this._values.join(separator);
    }
  }

  function load(content, options) {
    const html = content instanceof Node ? dom("html", { doc: content[SELF].doc, ids: [content[SELF].id], inner: false }) : String(content ?? "");
    const xml = Boolean(options && (options.xmlMode || options.xml));
    const doc = global.__domLoad(html, xml);
    const rootId = dom("root", { doc });
    const $ = function (selector, context) {
      if (selector === undefined || selector === null || selector === "") return new Selection(doc, [], $);
      if (selector instanceof Selection || selector instanceof Node || Array.isArray(selector)) return new Selection(doc, idsOf(doc, selector), $);
      const text = String(selector);
      if (/^\s*</u.test(text)) {
        const fragment = load(text);
        return fragment.root().children();
      }
      if (context !== undefined) return (typeof context === "string" ? $(context) : $(context)).find(text);
      const walked = dom("walk", { doc, ids: [rootId], walk: "find", arg: text });
      return new Selection(doc, learn(doc, walked.ids, walked.basics), $);
    };
    $.root = () => new Selection(doc, [rootId], $);
    $.html = (selector) => (selector === undefined ? dom("html", { doc, ids: [rootId], inner: true }) : $(selector).toString());
    $.text = (selector) => (selector === undefined ? $.root().text() : $(selector).text());
    $.xml = $.html;
    $.load = load;
    $.contains = (a, b) => $(a).find(b).length > 0;
    return $;
  }

  global.__defineModule("cheerio", () => {
    const api = { load, default: undefined };
    api.default = api;
    return api;
  });
})(globalThis);
