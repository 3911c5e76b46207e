export { createSourceFetcher, type SourceFetcherOptions } from "./client.js";
export { isForbiddenAddress, type LookupFunction } from "./address-guard.js";
