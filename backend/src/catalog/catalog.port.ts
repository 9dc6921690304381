import type { CouponTerms, Product, VariantAttribute } from '@awhh/machines';

/**
 * One variation of a variable product (a ticket tier, a size): its own price, sale price
 * and stock (rules "Everything the shop sells"). Prices in euros.
 */
export interface CatalogVariation {
  id: number;
  /** The organizer's sort order (WooCommerce `menu_order`); lower first. */
  menuOrder?: number;
  attributes: VariantAttribute[];
  price?: number;
  regular_price?: number;
  sale_price: number | null;
  on_sale: boolean;
  /** null: stock not tracked for this variation (unlimited). */
  stock_quantity: number | null;
  stock_status?: 'instock' | 'outofstock' | 'onbackorder';
  /**
   * WooCommerce `manage_stock: "parent"`: the variation draws from the parent's stock, so
   * tiers sharing it also share capacity.
   */
  sharesParentStock: boolean;
  /** Unpublished or not purchasable variations are shown nowhere and never sold. */
  purchasable: boolean;
  image: { src: string; alt?: string } | null;
}

/**
 * When the shop was asked for the stock (and a coupon's use count) a catalog answer
 * carries: epoch ms at the start of the request. A sale the shop confirmed before then is
 * in that stock; one confirmed after is not (docs/ledger.md, "A sale counts once"). A
 * symbol key: JSON leaves it out, a spread keeps it.
 */
export const SHOP_READ_AT: unique symbol = Symbol('shopReadAt');

/** When the shop was asked for this answer; 0 (before every sale) when nobody noted it. */
export function shopReadAt(answer: { [SHOP_READ_AT]?: number } | null | undefined): number {
  return answer?.[SHOP_READ_AT] ?? 0;
}

/**
 * A feed product plus the full description HTML (raw from the CMS), which the feed leaves
 * out but the event page shows (sanitised), and for a variable product (`type:
 * "variable"`) its variations. Assignable to Product.
 */
export type CatalogProduct = Product & {
  description?: string;
  /** WooCommerce category ids (coupon restrictions name categories by id); not in the feed. */
  categoryIds?: number[];
  variants?: CatalogVariation[];
  [SHOP_READ_AT]?: number;
};

export function isVariable(product: Pick<CatalogProduct, 'type'>): boolean {
  return product.type === 'variable';
}

/**
 * A coupon as the catalog keeps it: every restriction WooCommerce's REST API returns
 * (rules "Coupons"; applied by `checkCoupon` in `@awhh/machines`). Amounts in euros or percent.
 */
export type CatalogCoupon = CouponTerms & { [SHOP_READ_AT]?: number };

export interface CatalogPost {
  id: number;
  slug: string;
  title: string;
  /** Raw HTML from the CMS; sanitised before it leaves the API. */
  excerptHtml: string;
  contentHtml: string;
  publishedAt: string;
  image: { src: string; alt?: string } | null;
  author: string | null;
}

/** How a handed-off order was paid, in the terms of WooCommerce's payment fields. */
export interface OrderPayment {
  /** WooCommerce `payment_method` (a gateway id). */
  method: string;
  /** WooCommerce `payment_method_title`, what the organizer reads on the order. */
  title: string;
  /** Paid on the built-in test provider: no money moved. */
  testMode: boolean;
}

export const STRIPE_PAYMENT: OrderPayment = {
  method: 'stripe',
  title: 'Kreditkarte (Stripe Checkout)',
  testMode: false,
};

/** rules "Everything the shop sells": test-mode orders are marked as such in WooCommerce. */
export const TEST_MODE_PAYMENT: OrderPayment = {
  method: 'awhh-test',
  title: 'Testzahlung (Testmodus – kein echtes Geld)',
  testMode: true,
};

/** A paid order handed to the catalog (WooCommerce order with set_paid). */
export interface OrderHandOff {
  reference: string;
  email: string | null;
  /**
   * The buyer's name from the payment page, split as WooCommerce's billing fields keep it
   * (rules "Everything the shop sells"); absent when unknown (a free order).
   */
  buyer?: { firstName: string; lastName: string };
  /** Absent: Stripe Checkout. */
  payment?: OrderPayment;
  lines: {
    productId: number;
    variationId?: number;
    name: string;
    quantity: number;
    unitAmount: number;
    /**
     * The coupon's discount on this line, integer cents, as the checkout priced it (rules
     * "Coupons"): the line's total in the shop is its units less this. Absent: none.
     */
    discount?: number;
  }[];
  /** The catalog's own spelling of the code (WooCommerce stores codes lower-case). */
  couponCode: string | null;
  /** Integer cents. */
  total: number;
  currency: string;
  paymentReference: string;
}

/** Money that went back at the payment provider, to be recorded by the shop. */
export interface OrderRefund {
  /** The order's reference (`awhh_reference`). */
  reference: string;
  /** The shop's order id when known; else the shop looks it up by reference. */
  catalogOrderId: string | null;
  /** Everything the provider has refunded so far, integer cents. */
  refundedTotal: number;
  /** The order's total, integer cents: refunded in full, every line goes back to stock. */
  orderTotal: number;
  /** The provider's id of the latest refund. */
  refundReference: string;
  /** Refunded on the built-in test provider. */
  testMode: boolean;
  /**
   * rules "Refunds": units of the order's lines whose price went back so far (tickets a
   * partial refund covered), by the line's index in the handed-off order; the shop's refund
   * names them with their quantity so the stock comes back. Refunded in full, every line
   * goes back whatever this says.
   */
  restock?: readonly { position: number; quantity: number }[];
}

/** What `refundOrder` did: `restocked` units went back to the shop's stock with it. */
export interface RefundResult {
  found: boolean;
  refundId: string | null;
  restocked?: number;
}

/** What `restockOrder` put back: units per product or variation id. */
export interface RestockResult {
  found: boolean;
  restocked: { productId: number; variationId: number | null; quantity: number }[];
}

/** Catalog port: products, coupons, posts and the order hand-off. Adapters do the I/O. */
export abstract class CatalogPort {
  /** Every published product, shaped as the feed of rules §7 (prices as numbers). */
  abstract listProducts(): Promise<CatalogProduct[]>;
  /** The coupon with this code (case-insensitive), or null. */
  abstract findCoupon(code: string): Promise<CatalogCoupon | null>;
  abstract listPosts(): Promise<CatalogPost[]>;
  /**
   * Idempotent by `order.reference`; returns the catalog's order id. A shop that refuses
   * the order for good throws a `CatalogError` of kind `refused` with the shop's message,
   * having removed any draft the refusal left behind (rules "Hand-off refused").
   */
  abstract createOrder(order: OrderHandOff): Promise<{ id: string }>;
  /**
   * Brings the shop's refunds of a handed-off order up to `refundedTotal` (rules "Refunds
   * reach the shop"): reads the refunds it has and creates one for the difference, tagged
   * with `refundReference`; nothing when they add up already, so running it twice refunds
   * once. `found: false` when the shop has no order with this reference.
   */
  abstract refundOrder(refund: OrderRefund): Promise<RefundResult>;
  /**
   * rules "Orders made in the shop": every order the shop changed after `since` (all
   * pages, oldest change first, trashed ones too), as the shop renders an order: the shop
   * module reads each as it reads a webhook's body. A catalog without a shop has none.
   */
  abstract ordersChangedSince(since: Date): Promise<unknown[]>;
  /** One order as the shop has it now (rendered as above); null when the shop has no such order. */
  abstract findOrder(id: string): Promise<unknown>;
  /** The refunds of one order as the shop renders them (with their lines), oldest first. */
  abstract orderRefunds(id: string): Promise<unknown[]>;
  /**
   * docs/ledger.md "A place freed in the shop": puts back into the shop's stock what an
   * order that no longer stands (refunded, trashed) still keeps out of it, where the shop
   * itself does not. Exactly once by the shop's own bookkeeping: each line's
   * `_reduced_stock` goes to 0 with it, so a second run restocks nothing. `found: false`
   * when the shop has no such order.
   */
  abstract restockOrder(id: string, reason: string): Promise<RestockResult>;
  /** Adapter name for readiness reports ("woocommerce" or "demo"). */
  abstract readonly name: string;
}
