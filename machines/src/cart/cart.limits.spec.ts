import { createActor } from 'xstate';
import { MAX_UNITS_PER_ORDER } from '../pricing/pricing.js';
import { createMemoryStorage } from '../storage/storage.js';
import { lineLimit, limitHint } from './cart.limits.js';
import { createCartMachine } from './cart.machine.js';
import { cartItemId } from './cart.types.js';

// An event with two tiers (the server's limit of 10 per event), a shirt, and a print
// WooCommerce sells individually.
const regular = {
  id: cartItemId(42, 43),
  name: 'Sommer-Afterwork – Regulär',
  price: 35,
  productId: 42,
  variationId: 43,
  maxPerOrder: 10,
};
const vip = { ...regular, id: cartItemId(42, 45), name: 'Sommer-Afterwork – VIP', variationId: 45 };
const shirt = { id: '204', name: 'AWHH T-Shirt', price: 25, productId: 204, maxPerOrder: 20 };
const print = { id: '205', name: 'Siebdruck', price: 40, productId: 205, maxPerOrder: 1 };

function start() {
  const actor = createActor(createCartMachine(createMemoryStorage())).start();
  const quantities = () =>
    Object.fromEntries(actor.getSnapshot().context.items.map((i) => [i.id, i.quantity]));
  return { actor, quantities };
}

describe('the cart stops at the order limits the checkout enforces', () => {
  it("an event's tiers share its limit: adding or raising stops at 10 in all", () => {
    const { actor, quantities } = start();
    actor.send({ type: 'cart.add', item: regular, quantity: 6 });
    actor.send({ type: 'cart.add', item: vip, quantity: 6 });
    expect(quantities()).toEqual({ [regular.id]: 6, [vip.id]: 4 });
    actor.send({ type: 'cart.setQuantity', id: regular.id, quantity: 9 });
    expect(quantities()).toEqual({ [regular.id]: 6, [vip.id]: 4 });
    actor.send({ type: 'cart.setQuantity', id: vip.id, quantity: 1 });
    actor.send({ type: 'cart.setQuantity', id: regular.id, quantity: 99 });
    expect(quantities()).toEqual({ [regular.id]: 9, [vip.id]: 1 });
  });

  it('a product sold individually stays at 1', () => {
    const { actor, quantities } = start();
    actor.send({ type: 'cart.add', item: print, quantity: 3 });
    actor.send({ type: 'cart.add', item: print });
    actor.send({ type: 'cart.setQuantity', id: print.id, quantity: 2 });
    expect(quantities()).toEqual({ [print.id]: 1 });
  });

  it(`the whole cart holds at most ${MAX_UNITS_PER_ORDER} units; what does not fit is not added`, () => {
    const { actor, quantities } = start();
    actor.send({ type: 'cart.add', item: regular, quantity: 10 });
    actor.send({ type: 'cart.add', item: shirt, quantity: 15 });
    expect(quantities()).toEqual({ [regular.id]: 10, [shirt.id]: 10 });
    actor.send({ type: 'cart.add', item: print });
    expect(quantities()).toEqual({ [regular.id]: 10, [shirt.id]: 10 });
  });

  it('adding never takes away what a line already holds (a cart saved before the limits)', () => {
    const { actor, quantities } = start();
    actor.send({ type: 'cart.add', item: { ...regular, maxPerOrder: undefined }, quantity: 15 });
    actor.send({ type: 'cart.add', item: regular, quantity: 1 });
    expect(quantities()).toEqual({ [regular.id]: 15 });
    // Lowering brings it within the limit.
    actor.send({ type: 'cart.setQuantity', id: regular.id, quantity: 12 });
    expect(quantities()).toEqual({ [regular.id]: 10 });
  });

  it('the hint names the limit that stops a line, and nothing while more fits', () => {
    const items = [
      { ...regular, quantity: 6 },
      { ...vip, quantity: 3 },
    ];
    expect(lineLimit(items, items[0]!)).toEqual({ kind: 'product', max: 7, perProduct: 10 });
    expect(limitHint(items, items[0]!)).toBeNull();
    const full = [{ ...regular, quantity: 7 }, items[1]!];
    expect(limitHint(full, full[0]!)).toBe(
      'Davon sind höchstens 10 pro Bestellung möglich (alle Varianten zusammen).',
    );
    const simple = { ...regular, id: '101', variationId: undefined, quantity: 10 };
    expect(limitHint([simple], simple)).toBe('Davon sind höchstens 10 pro Bestellung möglich.');
    expect(limitHint([{ ...print, quantity: 1 }], { ...print, quantity: 1 })).toBe(
      'Davon gibt es nur ein Stück pro Bestellung.',
    );
    const crowded = [
      { ...shirt, quantity: 12 },
      { ...regular, quantity: 8 },
    ];
    expect(limitHint(crowded, crowded[0]!)).toBe('Eine Bestellung umfasst höchstens 20 Artikel.');
  });
});
