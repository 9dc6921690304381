import type { VariantAttribute } from '../schemas/wire.schemas.js';

/** The option values of a variation, as shown after the product's name ("VIP", "L"). */
export function variantLabel(attributes: readonly VariantAttribute[]): string {
  return attributes
    .map((a) => a.option.trim())
    .filter((option) => option !== '')
    .join(', ');
}

/**
 * rules "Everything the shop sells": a variation's line is named
 * "{product} – {option values}" ("Sommer-Afterwork – VIP") in cart, checkout, the
 * payment page, the success page and the order.
 */
export function variantLineName(productName: string, attributes: readonly VariantAttribute[]) {
  const label = variantLabel(attributes);
  return label ? `${productName} – ${label}` : productName;
}
