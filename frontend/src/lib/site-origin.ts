import { createContext, useContext } from 'react';

/**
 * The site's public origin (PUBLIC_URL), as the server renders the page with it and hands
 * it to the browser with the page's data, so absolute links hydrate unchanged.
 */
export const SiteOriginContext = createContext('');

/** rules "Calendar of all evenings": `webcal://<host>/events.ics`. */
export function useCalendarFeedUrl(): string {
  const origin = useContext(SiteOriginContext);
  // Without an origin (a page the server did not render) the page's own stands in.
  const base = origin || (typeof location === 'undefined' ? 'http://localhost' : location.origin);
  return new URL('/events.ics', base).href.replace(/^https?:/, 'webcal:');
}
