import { assign, emit, fromPromise, setup } from 'xstate';
import { couponLinesKey } from '../pricing/pricing.js';
import type {
  Coupon,
  CouponValidationLine,
  CouponValidationRequest,
} from '../schemas/wire.schemas.js';

export const COUPON_EMPTY_MESSAGE = 'Bitte gib einen Gutscheincode ein.';
export const COUPON_FALLBACK_MESSAGE =
  'Der Gutschein konnte gerade nicht geprüft werden. Bitte versuche es erneut.';
/** A changed cart is checked again once it has been still this long. */
export const COUPON_RECHECK_DELAY_MS = 400;

/** The cart as the server checks a coupon on it (rules "Coupons"). */
export interface CouponCart {
  /** In euros, as the validation request takes it. */
  subtotal?: number;
  lines?: CouponValidationLine[];
}

export interface CouponContext {
  code: string;
  coupon: Coupon | null;
  error: string | null;
  /** The cart the next check is for. */
  cart: CouponCart;
}

export interface CouponInput {
  coupon?: Coupon | null;
}

export type CouponEvent =
  | ({ type: 'coupon.apply'; code: string } & CouponCart)
  | ({ type: 'coupon.cartChanged' } & CouponCart)
  | { type: 'coupon.remove' };

export type CouponEmitted = { type: 'coupon.applied'; coupon: Coupon } | { type: 'coupon.removed' };

/**
 * A refusal by the server (4xx: unknown, expired, not for these lines) as opposed to a
 * failure to ask it (network, 5xx), after which an applied coupon stays as it was.
 */
export function isRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  // 429 only asks to wait: the coupon itself was not judged.
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 429;
}

/** The coupon with the key of the lines its server discount was computed for. */
function keyed(coupon: Coupon, cart: CouponCart): Coupon {
  return cart.lines === undefined ? coupon : { ...coupon, linesKey: couponLinesKey(cart.lines) };
}

/** The server's German message when it has one, else a generic one. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  if (typeof error === 'string' && error.trim() !== '') return error;
  return fallback;
}

/**
 * Coupon entry: a code goes to the server (injected `validateCoupon`) with the cart's
 * lines, and the server answers with the coupon and its discount on them, or a German
 * reason. The host applies the emitted coupon to the cart. An applied coupon is checked
 * again when the cart changes (`coupon.cartChanged`, debounced): a new figure replaces the
 * old, a refusal removes the coupon with its reason, a failure to ask keeps it.
 */
export const couponMachine = setup({
  types: {
    context: {} as CouponContext,
    events: {} as CouponEvent,
    input: {} as CouponInput,
    emitted: {} as CouponEmitted,
  },
  actors: {
    validateCoupon: fromPromise<Coupon, CouponValidationRequest>(async () => {
      throw new Error('validateCoupon must be provided');
    }),
  },
  delays: {
    recheckDelay: COUPON_RECHECK_DELAY_MS,
  },
  guards: {
    isRefusal: ({ event }) => 'error' in event && isRefusal(event.error),
    hasCode: ({ event }) => event.type === 'coupon.apply' && event.code.trim() !== '',
    hasCoupon: ({ context }) => context.coupon !== null,
  },
  actions: {
    rememberCode: assign({
      code: ({ event }) => (event.type === 'coupon.apply' ? event.code.trim() : ''),
      error: null,
    }),
    rememberCart: assign({
      cart: ({ context, event }) =>
        event.type === 'coupon.apply' || event.type === 'coupon.cartChanged'
          ? { subtotal: event.subtotal, lines: event.lines }
          : context.cart,
    }),
    rejectEmpty: assign({ error: COUPON_EMPTY_MESSAGE, code: '' }),
    forget: assign({ coupon: null, error: null, code: '' }),
  },
}).createMachine({
  id: 'coupon',
  context: ({ input }) => ({
    code: input?.coupon?.code ?? '',
    coupon: input?.coupon ?? null,
    error: null,
    cart: {},
  }),
  initial: 'routing',
  states: {
    routing: {
      always: [{ guard: 'hasCoupon', target: 'applied' }, { target: 'idle' }],
    },
    idle: {},
    validating: {
      invoke: {
        src: 'validateCoupon',
        input: ({ context }) => ({
          code: context.code,
          subtotal: context.cart.subtotal,
          ...(context.cart.lines ? { lines: context.cart.lines } : {}),
        }),
        onDone: {
          target: 'applied',
          actions: [
            assign({
              coupon: ({ context, event }) => keyed(event.output, context.cart),
              error: null,
            }),
            emit(({ context, event }) => ({
              type: 'coupon.applied' as const,
              coupon: keyed(event.output, context.cart),
            })),
          ],
        },
        onError: {
          target: 'rejected',
          actions: assign({
            coupon: null,
            error: ({ event }) => errorMessage(event.error, COUPON_FALLBACK_MESSAGE),
          }),
        },
      },
    },
    applied: {
      initial: 'settled',
      states: {
        settled: {},
        // The cart changed: wait until it has been still, then ask again.
        pending: {
          after: { recheckDelay: 'rechecking' },
        },
        rechecking: {
          invoke: {
            src: 'validateCoupon',
            input: ({ context }) => ({
              code: context.coupon?.code ?? context.code,
              subtotal: context.cart.subtotal,
              ...(context.cart.lines ? { lines: context.cart.lines } : {}),
            }),
            onDone: {
              target: 'settled',
              actions: [
                assign({
                  coupon: ({ context, event }) => keyed(event.output, context.cart),
                  error: null,
                }),
                emit(({ context, event }) => ({
                  type: 'coupon.applied' as const,
                  coupon: keyed(event.output, context.cart),
                })),
              ],
            },
            onError: [
              {
                guard: 'isRefusal',
                target: '#coupon.rejected',
                actions: [
                  assign({
                    coupon: null,
                    error: ({ event }) => errorMessage(event.error, COUPON_FALLBACK_MESSAGE),
                  }),
                  emit({ type: 'coupon.removed' as const }),
                ],
              },
              {
                target: 'settled',
                actions: assign({
                  error: ({ event }) => errorMessage(event.error, COUPON_FALLBACK_MESSAGE),
                }),
              },
            ],
          },
        },
      },
      on: {
        'coupon.cartChanged': {
          target: '.pending',
          reenter: true,
          actions: 'rememberCart',
        },
      },
    },
    rejected: {},
  },
  on: {
    'coupon.apply': [
      { guard: 'hasCode', target: '.validating', actions: ['rememberCode', 'rememberCart'] },
      { target: '.rejected', actions: 'rejectEmpty' },
    ],
    'coupon.remove': {
      target: '.idle',
      actions: ['forget', emit({ type: 'coupon.removed' as const })],
    },
  },
});
