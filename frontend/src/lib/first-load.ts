let firstLoad = true;

/** Called once the router has finished the navigation of the page's own HTML. */
export function firstLoadDone(): void {
  firstLoad = false;
}

/**
 * True while the router loads the page the server's HTML is for. That HTML already shows
 * the first screen of some pages and preloads their data (backend/src/site/page-snapshot.ts):
 * their loaders wait for the data then, so React's first commit replaces that screen with
 * the same content instead of a skeleton in between. Later navigations show skeletons.
 */
export function isFirstLoad(): boolean {
  return firstLoad;
}
