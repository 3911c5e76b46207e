/*
 * URL, URLSearchParams, TextEncoder and TextDecoder for plugins (QuickJS has none). URL parsing
 * is the host's WHATWG parser through `__call("url", …)`: one parser, the same answers as Node.
 */
(function (global) {
  "use strict";
  const call = global.__call;
  const PARTS = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];

  class URLSearchParams {
    constructor(init) {
      this._list = [];
      if (init == null) return;
      if (typeof init === "string") {
        for (const part of init.replace(/^\?/u, "").split("&")) {
          if (!part) continue;
          const at = part.indexOf("=");
          const decode = (s) => decodeURIComponent(s.replace(/\+/gu, " "));
          this._list.push(at < 0 ? [decode(part), ""] : [decode(part.slice(0, at)), decode(part.slice(at + 1))]);
        }
      } else if (init instanceof URLSearchParams) {
        this._list = init._list.map(([k, v]) => [k, v]);
      } else if (typeof init[Symbol.iterator] === "function") {
        for (const [k, v] of init) this._list.push([String(k), String(v)]);
      } else {
        for (const key of Object.keys(init)) this._list.push([key, String(init[key])]);
      }
    }
    _changed() {
      if (this._url) this._url._setSearch(this.toString());
    }
    append(k, v) {
      this._list.push([String(k), String(v)]);
      this._changed();
    }
    delete(k) {
      this._list = this._list.filter(([key]) => key !== String(k));
      this._changed();
    }
    get(k) {
      const found = this._list.find(([key]) => key === String(k));
      return found ? found[1] : null;
    }
    getAll(k) {
      return this._list.filter(([key]) => key === String(k)).map(([, v]) => v);
    }
    has(k) {
      return this._list.some(([key]) => key === String(k));
    }
    set(k, v) {
      const i = this._list.findIndex(([key]) => key === String(k));
      if (i < 0) this._list.push([String(k), String(v)]);
      else this._list = this._list.filter(([key], j) => key !== String(k) || j === i).map((e, j) => (j === i ? [String(k), String(v)] : e));
      this._changed();
    }
    sort() {
      this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      this._changed();
    }
    forEach(fn, self) {
      for (const [k, v] of this._list) fn.call(self, v, k, this);
    }
    keys() {
      return this._list.map(([k]) => k)[Symbol.iterator]();
    }
    values() {
      return this._list.map(([, v]) => v)[Symbol.iterator]();
    }
    entries() {
      return this._list.map(([k, v]) => [k, v])[Symbol.iterator]();
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    get size() {
      return this._list.length;
    }
    toString() {
      const encode = (s) => encodeURIComponent(s).replace(/%20/gu, "+").replace(/[!'()~]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
      return this._list.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
    }
  }

  class URL {
    constructor(input, base) {
      this._parts = call("url", { input: String(input), base: base === undefined ? undefined : String(base) });
      this._params = null;
    }
    _set(part, value) {
      this._parts = call("url", { input: this._parts.href, set: [part, String(value)] });
      if (this._params && part !== "search") this._params._list = new URLSearchParams(this._parts.search)._list;
    }
    _setSearch(search) {
      this._parts = call("url", { input: this._parts.href, set: ["search", search] });
    }
    get searchParams() {
      if (!this._params) {
        this._params = new URLSearchParams(this._parts.search);
        this._params._url = this;
      }
      return this._params;
    }
    toString() {
      return this._parts.href;
    }
    toJSON() {
      return this._parts.href;
    }
    static canParse(input, base) {
      try {
        new URL(input, base);
        return true;
      } catch {
        return false;
      }
    }
  }
  for (const part of PARTS) {
    Object.defineProperty(URL.prototype, part, {
      get() {
        return this._parts[part];
      },
      set(value) {
        if (part === "origin") return;
        this._set(part, value);
        if (part === "search" && this._params) this._params._list = new URLSearchParams(this._parts.search)._list;
      },
    });
  }

  class TextEncoder {
    get encoding() {
      return "utf-8";
    }
    encode(text = "") {
      return new Uint8Array(global.Buffer.from(String(text), "utf8"));
    }
  }
  class TextDecoder {
    constructor(encoding = "utf-8") {
      this.encoding = String(encoding).toLowerCase();
    }
    decode(bytes) {
      if (bytes === undefined) return "";
      const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (this.encoding === "utf-8" || this.encoding === "utf8") return global.Buffer.from(view).toString("utf8");
      return call("decode", { encoding: this.encoding, base64: global.Buffer.from(view).toString("base64") });
    }
  }

  Object.assign(global, { URL, URLSearchParams, TextEncoder, TextDecoder });
})(globalThis);
