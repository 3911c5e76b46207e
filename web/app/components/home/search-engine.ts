/**
 * What the home search needs only once a search is made (ADR 0077): the streamed and merged
 * requests and the results' rendering. SearchPanel loads it when the visitor shows intent to
 * search (focus or a press in the search box) and awaits it at the submit.
 */
export { SearchResults } from "./SearchResults";
export { canStream, searchCatalogue, streamSearch } from "./search-api";
export { applyBroken, applyDone, applySource } from "./search-stream";
