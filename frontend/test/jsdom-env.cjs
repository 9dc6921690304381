// jsdom plus the fetch classes of Node: react-router's data router builds a Request for
// every navigation and submission, and jsdom has none. AbortController comes along so that
// the Request accepts the router's signals. FormData stays jsdom's: React reads a submitted
// <form> into one (`new FormData(form)`), which Node's FormData cannot do; the forms send
// JSON to their actions (lib/form-action.ts).
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of [
      'Request',
      'Response',
      'Headers',
      'AbortController',
      'AbortSignal',
      'ReadableStream',
    ]) {
      if (globalThis[name]) this.global[name] = globalThis[name];
    }
  }
}

module.exports = JsdomWithFetch;
