import { startTransition, useEffect, useState } from 'react';
import type { DatedProduct } from '@awhh/machines';
import { api, paths } from '@/config/paths';
import { apiGet } from '@/lib/api-client';

let cached: Promise<string> | null = null;

/** rules §4: the next-event link from the product feed, computed by the shared rule. */
export function loadNextEventLink(): Promise<string> {
  // The rule (event dates in Berlin time) loads beside the feed instead of with every page:
  // the header is on each first load, and its link may wait for the feed anyway.
  cached ??= Promise.all([apiGet<DatedProduct[]>(api.products), import('./next-event-rule')])
    .then(([feed, { nextEventLink }]) => nextEventLink(Array.isArray(feed) ? feed : []))
    .catch(() => {
      cached = null;
      // /next asks the server again on click, so the link still leads somewhere useful.
      return paths.next;
    });
  return cached;
}

/** Until the feed has answered, /next (which resolves the same rule) stands in. */
export function useNextEventLink(): string {
  const [href, setHref] = useState<string>(paths.next);
  useEffect(() => {
    let live = true;
    void loadNextEventLink().then((link) => {
      // Header, footer and page take the link at once: in slices, not one long task.
      if (live) startTransition(() => setHref(link));
    });
    return () => {
      live = false;
    };
  }, []);
  return href;
}
