import { createContext, useContext } from 'react';

/**
 * rules §2: crawlers get no error page. The server decides per request from the user agent
 * (isbot, backend/src/site) and hands the answer to the browser with the page's data, so
 * the hydrated page and every later navigation agree with the HTML.
 */
export const BotContext = createContext(false);

export function useIsBot(): boolean {
  return useContext(BotContext);
}
