import { hydrate, type QueryClient } from '@tanstack/react-query';
import superjson, { type SuperJSONResult } from 'superjson';
import { FIRST_DATA_ELEMENT_ID } from '../../common/first-data';

/** Hashes of the queries the page's HTML brought, until their first mount has seen them. */
const fromPage = new Set<string>();

/**
 * The page's first data (server/http/first-data.ts): the answers of the route's first queries,
 * which the server put into the HTML, go into the query cache before the first render, so the
 * page paints its content without asking for it again (issue 30 item 2). Absent (a dev server,
 * a page the server could not fill in time), the queries ask as they always did. Says whether
 * the page brought its data.
 */
export function hydrateFirstData(queryClient: QueryClient): boolean {
  const element = document.getElementById(FIRST_DATA_ELEMENT_ID);
  if (!element?.textContent) return false;
  let hydrated = false;
  try {
    const state = superjson.deserialize(JSON.parse(element.textContent) as SuperJSONResult) as Parameters<typeof hydrate>[1];
    hydrate(queryClient, state);
    for (const query of (state as { queries: { queryHash: string }[] }).queries) fromPage.add(query.queryHash);
    hydrated = true;
  } catch {
    // a page without its data still works: its queries fetch
  }
  element.remove();
  return hydrated;
}

/**
 * For a query that refetches on every mount (`refetchOnMount: 'always'`, the feed): the mount
 * that first shows the page's own data does not ask again for what the HTML just brought. React
 * Query reads this more than once per mount, so it only reads; the component that showed the
 * page's data calls `forgetFirstData` when it unmounts, and every later mount refetches again.
 */
export function refetchUnlessFromPage(query: { queryHash: string }): boolean | 'always' {
  return fromPage.has(query.queryHash) ? true : 'always';
}

export function forgetFirstData(): void {
  fromPage.clear();
}
