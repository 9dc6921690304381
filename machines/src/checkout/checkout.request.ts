import { DEFAULT_CURRENCY, DEFAULT_PAYMENT_METHOD } from '../pricing/pricing.js';
import type {
  CartItem,
  CheckoutLineItem,
  CheckoutRequest,
  Coupon,
} from '../schemas/wire.schemas.js';

export interface CheckoutSubmission {
  items: readonly CartItem[];
  coupon: Coupon | null;
  /** Where the provider sends the buyer after paying (supplied by the caller, rules §7). */
  successUrl: string;
  /** The current page address (rules §7). */
  cancelUrl: string;
  paymentMethod?: string;
  email?: string;
  /** rules "Waiting list": the offer token from /waitlist/offer/{token}. */
  waitlistOffer?: string;
}

/** rules §3/§7 line item; productId/variationId so the server can re-price it. */
export function toCheckoutLineItem(item: CartItem): CheckoutLineItem {
  const productId = item.productId ?? Number.parseInt(item.id, 10);
  const line: CheckoutLineItem = {
    name: item.name,
    amount: item.price,
    quantity: item.quantity,
    currency: item.currency ?? DEFAULT_CURRENCY,
    images: item.image ? [item.image] : [],
    productId,
  };
  if (item.variationId) line.variationId = item.variationId;
  return line;
}

/** rules §7: the body of POST /api/checkout/session. */
export function buildCheckoutRequest(submission: CheckoutSubmission): CheckoutRequest {
  const request: CheckoutRequest = {
    line_items: submission.items.map(toCheckoutLineItem),
    success_url: submission.successUrl,
    cancel_url: submission.cancelUrl,
    payment_method: submission.paymentMethod ?? DEFAULT_PAYMENT_METHOD,
    coupon: submission.coupon ?? null,
  };
  if (submission.email) request.email = submission.email;
  if (submission.waitlistOffer) request.waitlist_offer = submission.waitlistOffer;
  return request;
}
