/** voy-search's wasm-bindgen glue, loaded without its bundler entry (see VoyIndex). */
declare module 'voy-search/voy_search_bg.js' {
  export * from 'voy-search';
  export function __wbg_set_wasm(exports: unknown): void;
}
