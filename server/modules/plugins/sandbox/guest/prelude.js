/*
 * The sandbox's own globals, evaluated first in every plugin's QuickJS context (issue 21).
 * A MusicFree plugin expects a small Node-like world: console, timers, URL, Buffer, env and
 * `require` of a few libraries. Everything here is plain JavaScript inside the sandbox; the only
 * way out is `__host` (JSON in, JSON out, and two promises: fetch and sleep), which the host
 * checks on its side. `__host` is taken into this closure and removed from the global object.
 */
(function (global) {
  "use strict";
  const host = global.__host;
  delete global.__host;

  const describe = (value) => {
    try {
      if (value instanceof Error) return `${value.name}: ${value.message}`;
      if (typeof value === "string") return value;
      return JSON.stringify(value) ?? String(value);
    } catch {
      return "[unprintable]";
    }
  };
  const log = (level) => (...args) => host.log(level, args.map(describe).join(" "));
  global.console = { log: log("info"), info: log("info"), debug: log("debug"), warn: log("warn"), error: log("error"), trace: log("debug") };

  // Timers: the host sleeps; the callback runs here. Bounded in number per plugin.
  const timers = new Map();
  let nextTimer = 1;
  global.setTimeout = (fn, ms, ...args) => {
    if (timers.size >= 64) throw new Error("too many timers");
    const id = nextTimer++;
    timers.set(id, true);
    host.sleep(Math.max(0, Number(ms) || 0)).then(() => {
      if (!timers.delete(id)) return;
      if (typeof fn === "function") fn(...args);
    });
    return id;
  };
  global.clearTimeout = (id) => void timers.delete(id);
  global.setInterval = () => {
    throw new Error("setInterval is not available to plugins");
  };
  global.clearInterval = global.clearTimeout;
  global.queueMicrotask = (fn) => void Promise.resolve().then(fn);

  const call = (op, payload) => {
    const answer = JSON.parse(host.call(op, JSON.stringify(payload)));
    if (answer && answer.error) throw new Error(answer.error);
    return answer.value;
  };
  global.__call = call;
  // The last pages fetched, by their text: the host still holds them (no copy back for cheerio).
  // A list, not a Map keyed by the text: a Map hashes the whole page on each set and get.
  const bodies = [];
  global.__rememberBody = (text, bodyId) => {
    if (!bodyId || typeof text !== "string") return;
    bodies.push({ text, bodyId });
    if (bodies.length > 8) bodies.shift();
  };
  const bodyIdOf = (html) => {
    for (let i = bodies.length - 1; i >= 0; i--) if (bodies[i].text.length === html.length && bodies[i].text === html) return bodies[i].bodyId;
    return 0;
  };
  global.__domLoad = (html, xml) => {
    const id = host.domLoad(html, Boolean(xml), typeof html === "string" ? bodyIdOf(html) : 0);
    if (typeof id !== "number") throw new Error(id);
    return id;
  };
  global.__fetch = (request) => host.fetch(JSON.stringify(request));

  // Base64 and UTF-8 through the host: one call each instead of a loop in an interpreter.
  global.atob = (text) => call("atob", String(text));
  global.btoa = (text) => call("btoa", String(text));

  // Libraries: real npm packages bundled for the sandbox, evaluated on first require.
  const libraries = new Map();
  const builtins = new Map();
  global.__defineModule = (name, factory) => builtins.set(name, factory);
  const loadLibrary = (name) => {
    const source = host.lib(name);
    const module = { exports: {} };
    const factory = new Function("module", "exports", "global", source);
    factory(module, module.exports, global);
    return module.exports;
  };
  global.require = function require(name) {
    const key = String(name).replace(/^node:/u, "");
    if (libraries.has(key)) return libraries.get(key);
    let exported;
    if (builtins.has(key)) exported = builtins.get(key)();
    else if (host.hasLib(key)) exported = loadLibrary(key);
    else throw new Error(`Cannot find module '${name}' (plugins may require axios, cheerio, crypto-js, dayjs, qs, he, big-integer, buffer)`);
    libraries.set(key, exported);
    return exported;
  };

  global.Buffer = global.require("buffer").Buffer;

  // The plugin's settings as the back office stores them (MusicFree's env).
  let variables = {};
  global.__setVariables = (json) => {
    variables = JSON.parse(json);
  };
  global.env = {
    getUserVariables: () => ({ ...variables }),
    appVersion: "0.6.0",
    os: "server",
    lang: "zh-CN",
  };
})(globalThis);
