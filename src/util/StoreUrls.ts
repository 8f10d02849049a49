/** Where a SPARQL store takes queries, updates and (for Fuseki-style servers) admin requests. */
export interface StoreUrls {
  queryUrl: string;
  updateUrl: string;
  adminUrl: string;
}

/**
 * The store's URLs from `--sparql-endpoint` and `--dataset`: a URL ending in /sparql is a plain
 * endpoint for both; anything else is a Fuseki-style base with the dataset's /query and /update.
 */
export function storeUrlsOf(endpoint: string, dataset: string): StoreUrls {
  const url = new URL(endpoint);
  if (/\/sparql\/?$/u.test(url.pathname)) {
    return { queryUrl: url.href, updateUrl: url.href, adminUrl: '' };
  }
  const base = url.href.endsWith('/') ? url.href : `${url.href}/`;
  return { queryUrl: `${base}${dataset}/query`, updateUrl: `${base}${dataset}/update`, adminUrl: base };
}
