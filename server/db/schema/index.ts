export * from "./accounts";
export * from "./catalog";
export * from "./library";
export * from "./plays";
export * from "./system";
