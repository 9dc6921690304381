import { fromPromise } from 'xstate';
import {
  CheckoutError,
  checkoutMachine,
  type ApiError,
  type CheckoutRequest,
  type CheckoutResponse,
  type OrderSummary,
} from '@awhh/machines';
import { ApiRequestError, apiGet, apiPost } from '@/lib/api-client';

export const checkoutApi = {
  session: '/api/checkout/session',
  sessionStatus: (id: string) => `/api/checkout/session/${encodeURIComponent(id)}`,
} as const;

/** Stripe's hosted checkout; the embedded test provider lives on our own origin. */
export const STRIPE_CHECKOUT_ORIGIN = 'https://checkout.stripe.com';

export const BLOCKED_REDIRECT_MESSAGE =
  'Die Zahlung konnte nicht gestartet werden: Die Weiterleitung zeigte auf eine unbekannte Adresse. Bitte versuche es erneut oder kontaktiere uns.';

/** Only our own origin and Stripe's checkout may receive the buyer. */
export function isAllowedRedirect(
  url: string,
  ownOrigin: string = window.location.origin,
): boolean {
  try {
    const target = new URL(url, ownOrigin);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') return false;
    return target.origin === ownOrigin || target.origin === STRIPE_CHECKOUT_ORIGIN;
  } catch {
    return false;
  }
}

export async function createCheckoutSession(request: CheckoutRequest): Promise<CheckoutResponse> {
  let response: CheckoutResponse;
  try {
    response = await apiPost<CheckoutResponse>(checkoutApi.session, request);
  } catch (error) {
    // Carry the whole body (409 lines included) into the machine's `problem`.
    if (error instanceof ApiRequestError) throw new CheckoutError(error.body as ApiError);
    throw error;
  }
  if (typeof response?.url === 'string' && !isAllowedRedirect(response.url)) {
    throw new CheckoutError({
      statusCode: 502,
      error: 'Bad Gateway',
      message: BLOCKED_REDIRECT_MESSAGE,
    });
  }
  return response;
}

/** rules §4: the server's session, then the browser goes to the returned URL. */
export const liveCheckoutMachine = checkoutMachine.provide({
  actors: {
    createSession: fromPromise<CheckoutResponse, CheckoutRequest>(({ input }) =>
      createCheckoutSession(input),
    ),
  },
  actions: {
    redirect: (_, params: { url: string }) => {
      window.location.assign(new URL(params.url, window.location.origin).href);
    },
  },
});

export function fetchOrder(sessionId: string, signal?: AbortSignal): Promise<OrderSummary> {
  return apiGet<OrderSummary>(checkoutApi.sessionStatus(sessionId), signal);
}

/** The URL the server expects as-is; the payment provider fills in the placeholder. */
export function successUrl(origin: string = window.location.origin): string {
  return `${origin}/success?session_id={CHECKOUT_SESSION_ID}`;
}
