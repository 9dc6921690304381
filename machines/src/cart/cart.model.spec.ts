import fc from 'fast-check';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { cartTotals } from '../pricing/pricing.js';
import { createMemoryStorage, type KeyValueStorage } from '../storage/storage.js';
import { readCart } from './cart.storage.js';
import { createCartMachine } from './cart.machine.js';
import type { CartEvent } from './cart.types.js';

const A = { id: '1', name: 'Ticket', price: 19.9, productId: 1 };
const B = { id: '2', name: 'Shirt', price: 'kein Preis', productId: 2 };

/** A finite event alphabet covering every kind of cart event, including odd values. */
const EVENTS: CartEvent[] = [
  { type: 'cart.add', item: A },
  { type: 'cart.add', item: A, quantity: 2 },
  { type: 'cart.add', item: B, quantity: 1.7 },
  { type: 'cart.add', item: B, quantity: -1 },
  { type: 'cart.remove', id: '1' },
  { type: 'cart.remove', id: 'missing' },
  { type: 'cart.setQuantity', id: '1', quantity: 0 },
  { type: 'cart.setQuantity', id: '1', quantity: 3 },
  { type: 'cart.setQuantity', id: '2', quantity: -4 },
  { type: 'cart.setQuantity', id: '2', quantity: 'x' },
  { type: 'cart.applyCoupon', coupon: { code: 'P', discountType: 'percent', discount: 10 } },
  { type: 'cart.applyCoupon', coupon: { code: 'F', discountType: 'fixed_cart', discount: 500 } },
  { type: 'cart.removeCoupon' },
  { type: 'cart.clear' },
];

function checkInvariants(storage: KeyValueStorage, context: ReturnType<typeof readCart>) {
  // Storage equals context.
  expect(readCart(storage)).toEqual(context);
  for (const item of context.items) {
    expect(Number.isInteger(item.quantity)).toBe(true);
    expect(item.quantity).toBeGreaterThanOrEqual(1);
  }
  expect(new Set(context.items.map((i) => i.id)).size).toBe(context.items.length);
  expect(cartTotals(context.items, context.coupon).total).toBeGreaterThanOrEqual(0);
}

describe('cart machine, model-based', () => {
  const model = createTestModel(createCartMachine(createMemoryStorage()), {
    events: EVENTS,
    // Only the alphabet above: the graph would otherwise add payload-less events of every type.
    filterEvents: (_s, e) => EVENTS.includes(e),
    // Bound the graph: context is part of the state, quantities would grow forever.
    stopWhen: (s) => s.context.items.some((i) => i.quantity > 4),
    serializeState: (s) => JSON.stringify([s.value, s.context]) as never,
  });
  const paths = model.getShortestPaths();

  it('reaches both modes of the cart graph', () => {
    const modes = new Set(paths.map((p) => p.state.value));
    expect(modes).toEqual(new Set(['empty', 'filled']));
    expect(paths.length).toBeGreaterThan(50);
  });

  it('keeps storage = context, whole quantities ≥ 1 and a total ≥ 0 after every step of every path', () => {
    for (const path of paths) {
      const storage = createMemoryStorage();
      const actor = createActor(createCartMachine(storage)).start();
      for (const step of path.steps) {
        actor.send(step.event);
        const snapshot = actor.getSnapshot();
        checkInvariants(storage, snapshot.context);
        // The real actor agrees with the state the model predicted for this step.
        expect(snapshot.value).toEqual(step.state.value);
        expect(snapshot.context).toEqual(step.state.context);
        expect(snapshot.value).toBe(snapshot.context.items.length > 0 ? 'filled' : 'empty');
      }
      actor.stop();
    }
  });

  it('keeps the invariants on long random walks, and a reload restores the same cart', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENTS), { maxLength: 60 }), (events) => {
        const storage = createMemoryStorage();
        const actor = createActor(createCartMachine(storage)).start();
        for (const event of events) {
          actor.send(event);
          checkInvariants(storage, actor.getSnapshot().context);
        }
        const reloaded = createActor(createCartMachine(storage)).start();
        expect(reloaded.getSnapshot().context).toEqual(actor.getSnapshot().context);
      }),
    );
  });
});
