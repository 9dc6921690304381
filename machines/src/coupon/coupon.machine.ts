import { assign, emit, fromPromise, setup } from 'xstate';
import type { Coupon, CouponValidationRequest } from '../schemas/wire.schemas.js';

export const COUPON_EMPTY_MESSAGE = 'Bitte gib einen Gutscheincode ein.';
export const COUPON_FALLBACK_MESSAGE =
  'Der Gutschein konnte gerade nicht geprüft werden. Bitte versuche es erneut.';

export interface CouponContext {
  code: string;
  coupon: Coupon | null;
  error: string | null;
}

export interface CouponInput {
  coupon?: Coupon | null;
}

export type CouponEvent =
  { type: 'coupon.apply'; code: string; subtotal?: number } | { type: 'coupon.remove' };

export type CouponEmitted = { type: 'coupon.applied'; coupon: Coupon } | { type: 'coupon.removed' };

/** The server's German message when it has one, else a generic one. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  if (typeof error === 'string' && error.trim() !== '') return error;
  return fallback;
}

/**
 * Coupon entry: a code goes to the server (injected `validateCoupon`), which answers
 * with the coupon or a German reason. The host applies the emitted coupon to the cart.
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
  guards: {
    hasCode: ({ event }) => event.type === 'coupon.apply' && event.code.trim() !== '',
    hasCoupon: ({ context }) => context.coupon !== null,
  },
  actions: {
    rememberCode: assign({
      code: ({ event }) => (event.type === 'coupon.apply' ? event.code.trim() : ''),
      error: null,
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
        input: ({ context, event }) => ({
          code: context.code,
          subtotal: event.type === 'coupon.apply' ? event.subtotal : undefined,
        }),
        onDone: {
          target: 'applied',
          actions: [
            assign({ coupon: ({ event }) => event.output, error: null }),
            emit(({ event }) => ({ type: 'coupon.applied' as const, coupon: event.output })),
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
    applied: {},
    rejected: {},
  },
  on: {
    'coupon.apply': [
      { guard: 'hasCode', target: '.validating', actions: 'rememberCode' },
      { target: '.rejected', actions: 'rejectEmpty' },
    ],
    'coupon.remove': {
      target: '.idle',
      actions: ['forget', emit({ type: 'coupon.removed' as const })],
    },
  },
});
