import { toCents, type Variant } from '@awhh/machines';

/**
 * "ab 35,00 €" (rules "Everything the shop sells"): the variants still on offer cost
 * different amounts. Once every variant is sold out, all of them count.
 */
export function hasPriceRange(variants: readonly Pick<Variant, 'price' | 'availability'>[]) {
  const open = variants.filter((v) => v.availability !== 'sold_out');
  return new Set((open.length > 0 ? open : variants).map((v) => toCents(v.price))).size > 1;
}
