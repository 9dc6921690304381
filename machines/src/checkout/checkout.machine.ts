import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../coupon/coupon.machine.js';
import type { ApiError, CheckoutRequest, CheckoutResponse } from '../schemas/wire.schemas.js';
import { buildCheckoutRequest, type CheckoutSubmission } from './checkout.request.js';

export const CHECKOUT_NO_URL_MESSAGE =
  'Die Zahlung konnte nicht gestartet werden: Der Zahlungsdienst hat keine Weiterleitung geliefert. Bitte versuche es erneut.';
export const CHECKOUT_FALLBACK_MESSAGE =
  'Die Zahlung konnte nicht gestartet werden. Bitte versuche es in einem Moment erneut.';

/** An error carrying the API's JSON body, so that the UI can explain a 409. */
export class CheckoutError extends Error {
  constructor(readonly body: ApiError) {
    super(body.message);
    this.name = 'CheckoutError';
  }
}

export interface CheckoutContext {
  request: CheckoutRequest | null;
  error: string | null;
  problem: ApiError | null;
  sessionId: string | null;
}

export type CheckoutEvent =
  | ({ type: 'checkout.submit' } & CheckoutSubmission)
  | { type: 'checkout.retry' }
  | { type: 'checkout.reset' };

/**
 * rules §4: checkout sends the cart to the server and sends the browser to the returned
 * URL. The cart itself is never touched here, so a failure keeps it as it was.
 */
export const checkoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
  },
  actors: {
    createSession: fromPromise<CheckoutResponse, CheckoutRequest>(async () => {
      throw new Error('createSession must be provided');
    }),
  },
  actions: {
    redirect: (_, _params: { url: string }) => {
      throw new Error('redirect must be provided');
    },
  },
  guards: {
    hasItems: ({ event }) => event.type === 'checkout.submit' && event.items.length > 0,
    hasUrl: ({ event }) =>
      'output' in event && typeof (event.output as CheckoutResponse | undefined)?.url === 'string',
    hasRequest: ({ context }) => context.request !== null,
  },
}).createMachine({
  id: 'checkout',
  context: { request: null, error: null, problem: null, sessionId: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'checkout.submit': {
          guard: 'hasItems',
          target: 'submitting',
          actions: assign({
            request: ({ event }) => buildCheckoutRequest(event),
            error: null,
            problem: null,
          }),
        },
      },
    },
    submitting: {
      invoke: {
        src: 'createSession',
        input: ({ context }) => context.request!,
        onDone: [
          {
            guard: 'hasUrl',
            target: 'redirecting',
            actions: [
              assign({ sessionId: ({ event }) => event.output.id }),
              {
                type: 'redirect',
                params: ({ event }) => ({ url: event.output.url! }),
              },
            ],
          },
          { target: 'failed', actions: assign({ error: CHECKOUT_NO_URL_MESSAGE }) },
        ],
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorMessage(event.error, CHECKOUT_FALLBACK_MESSAGE),
            problem: ({ event }) =>
              event.error instanceof CheckoutError ? event.error.body : null,
          }),
        },
      },
    },
    redirecting: {},
    failed: {
      on: {
        'checkout.retry': {
          guard: 'hasRequest',
          target: 'submitting',
          actions: assign({ error: null }),
        },
        'checkout.submit': {
          guard: 'hasItems',
          target: 'submitting',
          actions: assign({
            request: ({ event }) => buildCheckoutRequest(event),
            error: null,
            problem: null,
          }),
        },
        'checkout.reset': {
          target: 'idle',
          actions: assign({ request: null, error: null, problem: null }),
        },
      },
    },
  },
});
