/*
 * `require("axios")` inside the sandbox: the part of axios's API that plugins use (issue 21,
 * SOURCES.md), over the host's guarded client. Requests leave only through `__fetch`; the host
 * applies the SSRF guard, time, size and redirect caps and the source's concurrency.
 */
(function (global) {
  "use strict";
  const STATUS_TEXT = { 200: "OK", 201: "Created", 204: "No Content", 206: "Partial Content", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable" };

  class AxiosError extends Error {
    constructor(message, code, config, response) {
      super(message);
      this.name = "AxiosError";
      this.code = code;
      this.config = config;
      this.response = response;
      this.isAxiosError = true;
      if (response) this.status = response.status;
    }
    toJSON() {
      return { message: this.message, name: this.name, code: this.code, status: this.status };
    }
  }

  const merge = (...parts) => {
    const out = {};
    for (const part of parts) {
      if (!part) continue;
      for (const key of Object.keys(part)) {
        if (key === "headers") out.headers = { ...(out.headers || {}), ...flattenHeaders(part.headers, part.method || out.method) };
        else out[key] = part[key];
      }
    }
    return out;
  };
  const METHODS = ["get", "delete", "head", "options", "post", "put", "patch"];
  function flattenHeaders(headers, method) {
    if (!headers) return {};
    const out = {};
    for (const key of Object.keys(headers)) {
      const value = headers[key];
      if (key === "common" || METHODS.includes(key)) continue;
      if (value === undefined || value === null || typeof value === "object") continue;
      out[key] = String(value);
    }
    Object.assign(out, flattenCommon(headers, method));
    return out;
  }
  function flattenCommon(headers, method) {
    const out = {};
    if (headers.common && typeof headers.common === "object") Object.assign(out, headers.common);
    const own = method && headers[String(method).toLowerCase()];
    if (own && typeof own === "object") Object.assign(out, own);
    return out;
  }

  function serializeParams(params, serializer) {
    if (!params) return "";
    if (typeof serializer === "function") return serializer(params);
    if (serializer && typeof serializer.serialize === "function") return serializer.serialize(params);
    if (params instanceof global.URLSearchParams) return params.toString();
    const search = new global.URLSearchParams();
    for (const key of Object.keys(params)) {
      const value = params[key];
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) value.forEach((v) => search.append(`${key}[]`, typeof v === "object" ? JSON.stringify(v) : v));
      else search.append(key, typeof value === "object" && !(value instanceof Date) ? JSON.stringify(value) : value instanceof Date ? value.toISOString() : value);
    }
    return search.toString();
  }

  function buildUrl(config) {
    let url = String(config.url || "");
    if (config.baseURL && !/^[a-z][a-z0-9+.-]*:/iu.test(url)) url = String(config.baseURL).replace(/\/+$/u, "") + "/" + url.replace(/^\/+/u, "");
    const query = serializeParams(config.params, config.paramsSerializer);
    if (query) url += (url.includes("?") ? "&" : "?") + query;
    return url;
  }

  function encodeBody(data, headers) {
    const has = (name) => Object.keys(headers).some((k) => k.toLowerCase() === name);
    if (data === undefined || data === null) return undefined;
    if (typeof data === "string") return { text: data };
    if (data instanceof global.URLSearchParams) {
      if (!has("content-type")) headers["Content-Type"] = "application/x-www-form-urlencoded";
      return { text: data.toString() };
    }
    if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return { base64: global.Buffer.from(data).toString("base64") };
    if (!has("content-type")) headers["Content-Type"] = "application/json";
    const type = Object.keys(headers).find((k) => k.toLowerCase() === "content-type");
    if (type && /x-www-form-urlencoded/iu.test(headers[type])) return { text: serializeParams(data) };
    return { text: JSON.stringify(data) };
  }

  function parseData(raw, config) {
    let data = raw;
    if (config.responseType === "arraybuffer") data = global.Buffer.from(raw);
    else if (config.responseType !== "text" && typeof raw === "string" && config.transformResponse === undefined) {
      const trimmed = raw.trim();
      if (trimmed && (trimmed[0] === "{" || trimmed[0] === "[" || trimmed[0] === '"')) {
        try {
          data = JSON.parse(trimmed);
        } catch {
          data = raw;
        }
      }
    }
    const transforms = config.transformResponse === undefined ? [] : [].concat(config.transformResponse);
    for (const transform of transforms) if (typeof transform === "function") data = transform(data);
    return data;
  }

  function create(defaults) {
    const interceptors = { request: [], response: [] };
    const chain = (list) => ({
      use(fulfilled, rejected) {
        list.push({ fulfilled, rejected });
        return list.length - 1;
      },
      eject(id) {
        list[id] = null;
      },
      clear() {
        list.length = 0;
      },
    });

    async function request(configOrUrl, maybeConfig) {
      let config = typeof configOrUrl === "string" ? merge(instance.defaults, maybeConfig, { url: configOrUrl }) : merge(instance.defaults, configOrUrl);
      config.method = String(config.method || "get").toLowerCase();
      config.headers = { ...flattenCommon(instance.defaults.headers || {}, config.method), ...(config.headers || {}) };
      for (const i of interceptors.request) if (i && i.fulfilled) config = (await i.fulfilled(config)) || config;
      let response;
      try {
        response = await send(config);
      } catch (error) {
        let handled = Promise.reject(error);
        for (const i of interceptors.response) if (i && i.rejected) handled = handled.catch(i.rejected);
        return handled;
      }
      for (const i of interceptors.response) if (i && i.fulfilled) response = (await i.fulfilled(response)) || response;
      return response;
    }

    async function send(config) {
      const headers = { ...config.headers };
      const body = encodeBody(config.data, headers);
      const url = buildUrl(config);
      const answer = await global.__fetch({
        url,
        method: config.method.toUpperCase(),
        headers,
        body,
        timeout: config.timeout,
        maxRedirects: config.maxRedirects,
        binary: config.responseType === "arraybuffer",
        encoding: config.responseEncoding,
      });
      const meta = JSON.parse(answer.meta);
      if (meta.error) throw new AxiosError(meta.error, meta.code || "ERR_NETWORK", config);
      const response = {
        data: undefined,
        status: meta.status,
        statusText: STATUS_TEXT[meta.status] || "",
        headers: meta.headers,
        config,
        request: { responseURL: meta.url, res: { responseUrl: meta.url } },
      };
      global.__rememberBody(answer.body, meta.bodyId);
      response.data = parseData(answer.body, config);
      const validate = config.validateStatus === undefined ? (s) => s >= 200 && s < 300 : config.validateStatus;
      if (validate && !validate(meta.status)) {
        throw new AxiosError(`Request failed with status code ${meta.status}`, meta.status >= 500 ? "ERR_BAD_RESPONSE" : "ERR_BAD_REQUEST", config, response);
      }
      return response;
    }

    const instance = (configOrUrl, maybeConfig) => request(configOrUrl, maybeConfig);
    instance.defaults = merge({ headers: { common: { Accept: "application/json, text/plain, */*" } } }, defaults);
    instance.interceptors = { request: chain(interceptors.request), response: chain(interceptors.response) };
    instance.request = request;
    for (const method of ["get", "delete", "head", "options"]) instance[method] = (url, config) => request(merge(config, { url, method }));
    for (const method of ["post", "put", "patch"]) instance[method] = (url, data, config) => request(merge(config, { url, method, data }));
    instance.create = (more) => create(merge(instance.defaults, more));
    instance.isAxiosError = (e) => Boolean(e && e.isAxiosError);
    instance.isCancel = () => false;
    instance.AxiosError = AxiosError;
    instance.all = (list) => Promise.all(list);
    instance.spread = (fn) => (args) => fn(...args);
    instance.getUri = (config) => buildUrl(merge(instance.defaults, config));
    instance.default = instance;
    return instance;
  }

  global.__defineModule("axios", () => create({}));
})(globalThis);
