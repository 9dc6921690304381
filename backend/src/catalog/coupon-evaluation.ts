import {
  checkCoupon,
  type CouponCircumstances,
  type CouponLine,
  type CouponValidationLine,
  toCents,
  UNKNOWN_COUPON_MESSAGE,
  variantLineName,
} from '@awhh/machines';
import { type CatalogCoupon, type CatalogProduct, isVariable } from './catalog.port.js';

export { UNKNOWN_COUPON_MESSAGE };

export type CouponEvaluation =
  | {
      ok: true;
      coupon: { code: string; discountType: string; discount: number };
      /** The discount in cents for the lines given (0 without lines). */
      discountCents: number;
      /** Per line, in the order given. */
      lineDiscounts: number[];
      /** The coupon is bound to the buyer's address: the checkout asks for it. */
      needsEmail: boolean;
    }
  | { ok: false; statusCode: 404 | 422; message: string; needsEmail?: boolean };

/** A priced line (integer cents) the coupon rules are asked about. */
export interface PricedCouponLine {
  productId: number;
  variationId?: number | null;
  name: string;
  unitAmount: number;
  quantity: number;
}

/**
 * rules "Coupons": WooCommerce semantics, the rules themselves in `@awhh/machines`
 * (`checkCoupon`). Without lines (the cart page before it knows the cart) only the rules
 * that need none are checked; checkout always passes them, with the buyer's address.
 */
export function evaluateCoupon(
  coupon: CatalogCoupon | null,
  lines: readonly CouponLine[],
  circumstances: CouponCircumstances,
): CouponEvaluation {
  const verdict = checkCoupon(coupon, lines, circumstances);
  if (!verdict.ok) {
    return {
      ok: false,
      statusCode: verdict.statusCode,
      message: verdict.reason,
      ...(verdict.needsEmail ? { needsEmail: true } : {}),
    };
  }
  const found = coupon!;
  return {
    ok: true,
    coupon: {
      code: found.code,
      discountType: found.discountType,
      discount: Number.isFinite(found.amount) && found.amount > 0 ? found.amount : 0,
    },
    discountCents: verdict.discount,
    lineDiscounts: verdict.lineDiscounts,
    needsEmail: verdict.needsEmail,
  };
}

/** The lines as the rules see them: the product's categories and sale state from the catalog. */
export function couponLinesOf(
  catalog: readonly CatalogProduct[],
  lines: readonly PricedCouponLine[],
): CouponLine[] {
  return lines.map((line) => {
    const product = catalog.find((p) => p.id === line.productId);
    const variation = line.variationId
      ? product?.variants?.find((v) => v.id === line.variationId)
      : undefined;
    return {
      productId: line.productId,
      variationId: line.variationId ?? null,
      name: line.name,
      unitAmount: line.unitAmount,
      quantity: line.quantity,
      categoryIds: product?.categoryIds ?? [],
      onSale: variation ? variation.on_sale : product?.on_sale === true,
    };
  });
}

/** Names of products or variations, for "Dieser Gutschein gilt nur für …". */
export function productNamesIn(catalog: readonly CatalogProduct[]) {
  return (ids: readonly number[]): string[] =>
    ids.flatMap((id) => {
      const product = catalog.find((p) => p.id === id);
      if (product) return [product.name];
      for (const parent of catalog) {
        if (!isVariable(parent)) continue;
        const variation = parent.variants?.find((v) => v.id === id);
        if (variation) return [variantLineName(parent.name, variation.attributes)];
      }
      return [];
    });
}

/**
 * The cart's lines priced from the catalog (integer cents); lines the catalog does not
 * offer are left out (checkout refuses them with its own message).
 */
export function priceCouponLines(
  catalog: readonly CatalogProduct[],
  lines: readonly CouponValidationLine[],
): PricedCouponLine[] {
  return lines.flatMap((line) => {
    const product = catalog.find((p) => p.id === line.productId);
    if (!product) return [];
    if (!isVariable(product)) {
      if (line.variationId !== undefined || product.price === undefined) return [];
      const unitAmount = toCents(product.price);
      return [{ productId: product.id, name: product.name, unitAmount, quantity: line.quantity }];
    }
    const variation = product.variants?.find((v) => v.id === line.variationId);
    if (!variation || !variation.purchasable || variation.price === undefined) return [];
    return [
      {
        productId: product.id,
        variationId: variation.id,
        name: variantLineName(product.name, variation.attributes),
        unitAmount: toCents(variation.price),
        quantity: line.quantity,
      },
    ];
  });
}
