/** An item of a collection page: an IRI (followers, following, liked) or an embedded activity (inbox, outbox). */
export type PageItem = string | { id?: string; [key: string]: unknown };

/** The ids of a collection page's items, whichever form each has. */
export function itemIds(page: { orderedItems?: unknown }): string[] {
  return ((page.orderedItems ?? []) as PageItem[]).map((item): string => typeof item === 'string' ? item : String(item.id));
}
