import {
  cartItemId,
  type CartItemInput,
  type MerchSummary,
  type Variant,
  variantLineName,
} from '@awhh/machines';

type Product = Pick<MerchSummary, 'id' | 'name' | 'price' | 'currency' | 'image'>;

/**
 * The cart line for a product, or for one variant of a variable product (DESIGN "Everything
 * the shop sells"): id "productId:variationId", name "{product} – {option values}" and the
 * variant's own price. The server re-prices every line at checkout anyway.
 */
export function cartLine(product: Product, variant?: Variant): CartItemInput {
  const line: CartItemInput = {
    id: cartItemId(product.id, variant?.id),
    productId: product.id,
    name: variant ? variantLineName(product.name, variant.attributes) : product.name,
    price: variant ? variant.price : product.price,
    currency: product.currency.toLowerCase(),
    image: product.image?.src,
  };
  if (variant) line.variationId = variant.id;
  return line;
}
