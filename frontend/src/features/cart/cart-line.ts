import {
  cartItemId,
  type CartEvent,
  type CartItem,
  type CartItemInput,
  type MerchSummary,
  type Variant,
  variantLineName,
} from '@awhh/machines';

type Product = Pick<MerchSummary, 'id' | 'name' | 'price' | 'currency' | 'image' | 'maxPerOrder'>;

/**
 * The cart line for a product, or for one variant of a variable product (rules "Everything
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
    // The checkout's limit for the product, so the cart stops where the checkout would.
    maxPerOrder: product.maxPerOrder,
  };
  if (variant) line.variationId = variant.id;
  return line;
}

/** Adds to the cart; returns how many units it took (fewer when an order limit stops it). */
export function addToCart(
  cart: { send(event: CartEvent): void; getSnapshot(): { context: { items: CartItem[] } } },
  item: CartItemInput,
  quantity: number,
): number {
  const held = () =>
    cart.getSnapshot().context.items.find((i) => i.id === String(item.id))?.quantity ?? 0;
  const before = held();
  cart.send({ type: 'cart.add', item, quantity });
  return held() - before;
}
