export * from "./accounts.js";
export * from "./catalog.js";
export * from "./library.js";
export * from "./plays.js";
export * from "./system.js";
export * from "./collect.js";
export * from "./plugins.js";
export * from "./recorded.js";
