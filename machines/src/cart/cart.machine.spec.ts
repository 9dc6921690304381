import { createActor } from 'xstate';
import { createMemoryStorage, type KeyValueStorage } from '../storage/storage.js';
import { createCartMachine } from './cart.machine.js';
import { CART_STORAGE_KEY, COUPON_STORAGE_KEY, cartItemId } from './cart.types.js';

const ticket = { id: '101', name: 'Ticket Elbphilharmonie-Lounge', price: 19, productId: 101 };
const shirt = { id: '201', name: 'AWHH Shirt', price: '24.90', productId: 201 };

function start(storage: KeyValueStorage = createMemoryStorage()) {
  const actor = createActor(createCartMachine(storage)).start();
  return { actor, storage, ctx: () => actor.getSnapshot().context };
}

describe('rules §4 cart', () => {
  it('rules §4: the initial state is the saved cart from browser storage', () => {
    const storage = createMemoryStorage({
      [CART_STORAGE_KEY]: JSON.stringify([{ ...ticket, quantity: 2 }]),
      [COUPON_STORAGE_KEY]: JSON.stringify({ code: 'X', discountType: 'percent', discount: 10 }),
    });
    const { ctx, actor } = start(storage);
    expect(ctx().items).toEqual([{ ...ticket, quantity: 2 }]);
    expect(ctx().coupon).toEqual({ code: 'X', discountType: 'percent', discount: 10 });
    expect(actor.getSnapshot().value).toBe('filled');
  });

  it('rules §4: the cart is empty when nothing is saved', () => {
    const { ctx, actor } = start();
    expect(ctx()).toEqual({ items: [], coupon: null });
    expect(actor.getSnapshot().value).toBe('empty');
  });

  it.each([
    ['not JSON', '{oops'],
    ['an object instead of a list', '{"id":"1"}'],
    ['a number', '42'],
    ['null', 'null'],
  ])('rules §4: the cart is empty when the saved cart is invalid (%s)', (_, saved) => {
    const storage = createMemoryStorage({ [CART_STORAGE_KEY]: saved, [COUPON_STORAGE_KEY]: '[1' });
    expect(start(storage).ctx()).toEqual({ items: [], coupon: null });
  });

  it('rules §4: invalid lines in a saved cart are dropped, valid ones kept and normalised', () => {
    const storage = createMemoryStorage({
      [CART_STORAGE_KEY]: JSON.stringify([
        null,
        { name: 'no id' },
        { id: '5', name: 'Zero', quantity: 0 },
        { id: '6', name: 'Broken price', price: 'abc', quantity: 2.7 },
      ]),
    });
    expect(start(storage).ctx().items).toEqual([
      { id: '6', name: 'Broken price', price: 0, quantity: 2 },
    ]);
  });

  it('a storage that throws on read gives an empty cart instead of a crash', () => {
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceeded');
      },
      removeItem: () => undefined,
    };
    const { actor, ctx } = start(broken);
    actor.send({ type: 'cart.add', item: ticket });
    expect(ctx().items).toHaveLength(1);
  });

  it('rules §4: adding an item already in the cart increases its quantity by the given quantity', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'cart.add', item: ticket, quantity: 2 });
    actor.send({ type: 'cart.add', item: ticket, quantity: 3 });
    expect(ctx().items).toEqual([{ ...ticket, quantity: 5 }]);
  });

  it('rules §4: adding without a quantity adds 1', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'cart.add', item: ticket });
    actor.send({ type: 'cart.add', item: ticket });
    expect(ctx().items[0]!.quantity).toBe(2);
  });

  it('rules §4: adding a new id adds a new line', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'cart.add', item: ticket });
    actor.send({ type: 'cart.add', item: shirt });
    expect(ctx().items.map((i) => i.id)).toEqual(['101', '201']);
    expect(ctx().items[1]!.price).toBe(24.9);
  });

  it('rules §3: an added item with a non-numeric price costs 0', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'cart.add', item: { id: '9', name: 'Gratis', price: 'n/a' } });
    expect(ctx().items[0]!.price).toBe(0);
  });

  it('adding zero or a negative quantity changes nothing', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'cart.add', item: ticket, quantity: 0 });
    actor.send({ type: 'cart.add', item: ticket, quantity: -2 });
    expect(ctx().items).toEqual([]);
  });

  it('rules §4: removing an item deletes its line', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'cart.add', item: ticket });
    actor.send({ type: 'cart.add', item: shirt });
    actor.send({ type: 'cart.remove', id: '101' });
    expect(ctx().items.map((i) => i.id)).toEqual(['201']);
  });

  it.each([0, -1, -0.5, 0.4])(
    'rules §4: setting a quantity of 0 or less removes the line (%p)',
    (quantity) => {
      const { actor, ctx } = start();
      actor.send({ type: 'cart.add', item: ticket, quantity: 3 });
      actor.send({ type: 'cart.setQuantity', id: '101', quantity });
      expect(ctx().items).toEqual([]);
      expect(actor.getSnapshot().value).toBe('empty');
    },
  );

  it('rules §4: setting a positive quantity replaces it', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'cart.add', item: ticket, quantity: 3 });
    actor.send({ type: 'cart.setQuantity', id: '101', quantity: 7 });
    expect(ctx().items[0]!.quantity).toBe(7);
  });

  it('rules §4: applying a coupon replaces any existing coupon', () => {
    const { actor, ctx } = start();
    actor.send({
      type: 'cart.applyCoupon',
      coupon: { code: 'A', discountType: 'percent', discount: 10 },
    });
    actor.send({
      type: 'cart.applyCoupon',
      coupon: { code: 'B', discountType: 'fixed_cart', discount: 5 },
    });
    expect(ctx().coupon).toEqual({ code: 'B', discountType: 'fixed_cart', discount: 5 });
  });

  it('rules §4: a coupon can be removed', () => {
    const { actor, ctx, storage } = start();
    actor.send({ type: 'cart.applyCoupon', coupon: { discountType: 'percent', discount: 10 } });
    actor.send({ type: 'cart.removeCoupon' });
    expect(ctx().coupon).toBeNull();
    expect(storage.getItem(COUPON_STORAGE_KEY)).toBeNull();
  });

  it('rules §4: clearing the cart empties it and removes the coupon', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'cart.add', item: ticket, quantity: 2 });
    actor.send({ type: 'cart.applyCoupon', coupon: { discountType: 'percent', discount: 10 } });
    actor.send({ type: 'cart.clear' });
    expect(ctx()).toEqual({ items: [], coupon: null });
  });

  it('rules §4/§9: every change is saved under awhh.cart.v1 and awhh.coupon.v1', () => {
    const { actor, storage } = start();
    actor.send({ type: 'cart.add', item: ticket, quantity: 2 });
    expect(JSON.parse(storage.getItem(CART_STORAGE_KEY)!)).toEqual([{ ...ticket, quantity: 2 }]);
    actor.send({
      type: 'cart.applyCoupon',
      coupon: { code: 'A', discountType: 'percent', discount: 10 },
    });
    expect(JSON.parse(storage.getItem(COUPON_STORAGE_KEY)!)).toEqual({
      code: 'A',
      discountType: 'percent',
      discount: 10,
    });
    actor.send({ type: 'cart.setQuantity', id: '101', quantity: 4 });
    expect(JSON.parse(storage.getItem(CART_STORAGE_KEY)!)[0].quantity).toBe(4);
  });

  it('takes the server prices and stock of a 409 answer into the cart', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'cart.add', item: ticket, quantity: 5 });
    actor.send({ type: 'cart.add', item: shirt, quantity: 1 });
    actor.send({
      type: 'cart.update',
      lines: [
        { id: '101', price: 21, available: 3 },
        { id: '201', price: 24.9, available: 0 },
      ],
    });
    expect(ctx().items).toEqual([{ ...ticket, price: 21, quantity: 3 }]);
  });

  it('restores what another tab saved without writing it back', () => {
    const storage = createMemoryStorage();
    const a = start(storage);
    const b = start(storage);
    a.actor.send({ type: 'cart.add', item: ticket, quantity: 2 });
    b.actor.send({ type: 'cart.restore' });
    expect(b.ctx().items).toEqual([{ ...ticket, quantity: 2 }]);
  });

  it('rules §3: a line id is the product id, or productId:variationId for a variation', () => {
    expect(cartItemId(101)).toBe('101');
    expect(cartItemId(101, 7)).toBe('101:7');
  });
});
