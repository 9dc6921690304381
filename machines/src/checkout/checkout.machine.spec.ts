import { createActor, fromPromise, waitFor } from 'xstate';
import { createCartMachine } from '../cart/cart.machine.js';
import { createMemoryStorage } from '../storage/storage.js';
import type { CheckoutRequest, CheckoutResponse } from '../schemas/wire.schemas.js';
import { checkoutRequestSchema } from '../schemas/wire.schemas.js';
import { buildCheckoutRequest } from './checkout.request.js';
import {
  CHECKOUT_NO_URL_MESSAGE,
  CheckoutError,
  checkoutMachine,
  type CheckoutEvent,
} from './checkout.machine.js';

const items = [
  { id: '101', name: 'Ticket', price: 19, quantity: 2, image: '/media/a.jpg', productId: 101 },
  { id: '201:7', name: 'Shirt M', price: 24.9, quantity: 1, productId: 201, variationId: 7 },
];
const submit: CheckoutEvent = {
  type: 'checkout.submit',
  items,
  coupon: null,
  successUrl: 'https://awhh.de/success?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'https://awhh.de/checkout',
};

function start(createSession: (req: CheckoutRequest) => Promise<CheckoutResponse>) {
  const requests: CheckoutRequest[] = [];
  const redirects: string[] = [];
  const machine = checkoutMachine.provide({
    actors: {
      createSession: fromPromise(({ input }: { input: CheckoutRequest }) => {
        requests.push(input);
        return createSession(input);
      }),
    },
    actions: { redirect: (_, params) => void redirects.push(params.url) },
  });
  return { actor: createActor(machine).start(), requests, redirects };
}

describe('rules §7 checkout request', () => {
  it('rules §7: builds line_items with name, amount, quantity, currency and images, plus productId/variationId', () => {
    expect(buildCheckoutRequest({ ...submit }).line_items).toEqual([
      {
        name: 'Ticket',
        amount: 19,
        quantity: 2,
        currency: 'eur',
        images: ['/media/a.jpg'],
        productId: 101,
      },
      {
        name: 'Shirt M',
        amount: 24.9,
        quantity: 1,
        currency: 'eur',
        images: [],
        productId: 201,
        variationId: 7,
      },
    ]);
  });

  it('rules §9: the default currency of checkout lines is eur, unless the item has one', () => {
    const [line] = buildCheckoutRequest({
      ...submit,
      items: [{ ...items[0]!, currency: 'usd' }],
    }).line_items;
    expect(line!.currency).toBe('usd');
  });

  it('rules §7: success_url from the caller, cancel_url the current page, payment_method default card, coupon or null', () => {
    const body = buildCheckoutRequest(submit);
    expect(body.success_url).toBe(submit.successUrl);
    expect(body.cancel_url).toBe('https://awhh.de/checkout');
    expect(body.payment_method).toBe('card');
    expect(body.coupon).toBeNull();
    const coupon = { code: 'x', discountType: 'percent', discount: 10 };
    expect(buildCheckoutRequest({ ...submit, coupon, paymentMethod: 'paypal' })).toMatchObject({
      coupon,
      payment_method: 'paypal',
    });
  });

  it('the request passes the shared wire schema the server validates with', () => {
    expect(checkoutRequestSchema.safeParse(buildCheckoutRequest(submit)).success).toBe(true);
  });
});

describe('rules §4 checkout machine', () => {
  it('rules §4: sends the cart to the server and redirects to the URL it returns', async () => {
    const { actor, requests, redirects } = start(async () => ({
      id: 'cs_1',
      url: 'https://pay.example/cs_1',
    }));
    actor.send(submit);
    expect(actor.getSnapshot().value).toBe('submitting');
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(requests).toEqual([buildCheckoutRequest(submit)]);
    expect(redirects).toEqual(['https://pay.example/cs_1']);
    expect(actor.getSnapshot().context.sessionId).toBe('cs_1');
  });

  it('rules §7: an answer without url fails with a clear message and no redirect', async () => {
    const { actor, redirects } = start(async () => ({ id: 'cs_1' }));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe(CHECKOUT_NO_URL_MESSAGE);
    expect(redirects).toEqual([]);
  });

  it('a failed call keeps the message and the problem details, leaves the cart untouched, and can be retried', async () => {
    const storage = createMemoryStorage();
    const cart = createActor(createCartMachine(storage)).start();
    for (const item of items) cart.send({ type: 'cart.add', item, quantity: item.quantity });
    const before = cart.getSnapshot().context;

    let fail = true;
    const { actor, requests } = start(async () => {
      if (fail) {
        throw new CheckoutError({
          statusCode: 409,
          error: 'Conflict',
          message: 'Die Preise haben sich geändert.',
          lines: [],
        });
      }
      return { id: 'cs_2', url: 'https://pay.example/cs_2' };
    });
    actor.send({ ...submit, items: cart.getSnapshot().context.items });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Die Preise haben sich geändert.');
    expect(actor.getSnapshot().context.problem?.statusCode).toBe(409);
    expect(cart.getSnapshot().context).toEqual(before);

    fail = false;
    actor.send({ type: 'checkout.retry' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(requests).toHaveLength(2);
  });

  it.each([
    [
      'an order limit (400)',
      {
        statusCode: 400,
        error: 'Bad Request',
        message:
          'Von „Ticket“ sind höchstens 10 pro Bestellung möglich. Bitte verringere die Anzahl im Warenkorb.',
      },
    ],
    [
      'too many open checkouts from one address (429)',
      {
        statusCode: 429,
        error: 'Too Many Requests',
        message:
          'Von deinem Anschluss aus sind schon 3 Bestellungen offen, die noch nicht bezahlt sind. Bitte schließe eine davon ab oder versuche es in 30 Minuten erneut – dein Warenkorb bleibt erhalten.',
      },
    ],
  ])("%s: the server's message is shown and the cart stays as it was", async (_what, body) => {
    const cart = createActor(createCartMachine(createMemoryStorage())).start();
    for (const item of items) cart.send({ type: 'cart.add', item, quantity: item.quantity });
    const before = cart.getSnapshot().context;
    const { actor, redirects } = start(async () => {
      throw new CheckoutError(body);
    });
    actor.send({ ...submit, items: cart.getSnapshot().context.items });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe(body.message);
    expect(actor.getSnapshot().context.problem).toEqual(body);
    expect(redirects).toEqual([]);
    expect(cart.getSnapshot().context).toEqual(before);
    // Once the visitor changed the cart, the order can be sent again.
    expect(actor.getSnapshot().can(submit)).toBe(true);
  });

  it('an empty cart cannot be submitted', () => {
    const { actor } = start(async () => ({ id: 'x', url: 'https://x' }));
    expect(actor.getSnapshot().can({ ...submit, items: [] })).toBe(false);
    expect(actor.getSnapshot().can(submit)).toBe(true);
  });
});
