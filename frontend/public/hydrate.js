/* global document, window */
// rules "Rendering": the server's HTML already is the whole page. The code that makes it
// interactive (the entry, its imports and the page's route chunks, named by the server in
// data attributes) is requested once the first screen has loaded (window "load") and been
// painted, so it never competes with the stylesheets, the fonts and the largest image for
// the connection nor for the main thread (FCP, LCP on slow connections and devices). A file, not an inline script: the Content-Security-Policy allows only those.
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute('data-entry');
  if (!entry) return;
  var modules = (script.getAttribute('data-modules') || '').split(' ').filter(Boolean);
  // Each step in a task of its own, so the browser can paint and answer input in between:
  // with a request per link, adding them all at once made one long task (Total Blocking
  // Time). A message, unlike setTimeout, is not held back by timer clamping.
  var channel = new MessageChannel();
  var steps = [];
  channel.port1.onmessage = function () {
    var step = steps.shift();
    if (step) step();
    if (steps.length > 0) channel.port2.postMessage(null);
  };
  /** A step that adds a CORS-mode element for the bundles to the head. */
  function addToHead(tagName, props) {
    return function () {
      var element = document.createElement(tagName);
      Object.keys(props).forEach(function (key) {
        element[key] = props[key];
      });
      element.crossOrigin = '';
      document.head.appendChild(element);
    };
  }
  function start() {
    // The entry first: the largest file, and what its graph needs is found from it too.
    steps.push(addToHead('script', { type: 'module', src: entry }));
    modules.forEach(function (href) {
      steps.push(addToHead('link', { rel: 'modulepreload', href: href }));
    });
    channel.port2.postMessage(null);
  }
  // Once the page has loaded and its first contentful frame has been painted (a page with
  // large images may take a while to paint on a slow device).
  var loaded = document.readyState === 'complete';
  var painted = false;
  var started = false;
  function maybeStart() {
    if (started || !loaded || !painted) return;
    started = true;
    start();
  }
  try {
    new PerformanceObserver(function (list, observer) {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      painted = true;
      maybeStart();
    }).observe({ type: 'paint', buffered: true });
  } catch {
    painted = true; // No paint timing in this browser: the load event alone decides.
  }
  if (!loaded) {
    window.addEventListener(
      'load',
      function () {
        loaded = true;
        maybeStart();
      },
      { once: true },
    );
  }
  maybeStart();
})();
