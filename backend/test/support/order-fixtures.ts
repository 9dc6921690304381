import { Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { OrderInput } from '@awhh/machines';
import { CatalogService } from '../../src/catalog/catalog.service.js';
import { CheckoutOptions } from '../../src/orders/checkout.options.js';
import { type DraftLine, type OrderDraft, OrderService } from '../../src/orders/order.service.js';
import {
  type PaymentDelivery,
  type PaymentEvent,
  type PaymentSession,
  type PaymentSessionRequest,
  PaymentsPort,
  WebhookSignatureError,
} from '../../src/orders/payments/payments.port.js';
import { AppConfig, parseConfig } from '../../src/config/config.js';
import { HealthIndicators } from '../../src/health/health-indicators.js';
import { JobSignal } from '../../src/jobs/job-signal.js';
import { Holds } from '../../src/holds/holds.js';
import { OrderEffects } from '../../src/orders/order-effects.js';
import { TicketEffects } from '../../src/tickets/ticket-effects.js';
import type { TicketService } from '../../src/tickets/ticket.service.js';
import type { Order } from '../../src/orders/orders.port.js';
import { FakeCatalog } from './checkout-test-app.js';
import { InMemoryStore } from './in-memory-store.js';

/**
 * A payments adapter whose provider state the test sets: what `retrieveSession` answers
 * per session, or that the provider cannot be reached.
 */
export class FakePayments extends PaymentsPort {
  readonly name = 'stripe' as const;
  readonly sessions = new Map<string, PaymentEvent | null>();
  readonly created: PaymentSessionRequest[] = [];
  readonly retrieved: string[] = [];
  readonly refunds: { paymentReference: string; amount: number; idempotencyKey: string }[] = [];
  retrieveError: Error | null = null;

  async createSession(request: PaymentSessionRequest): Promise<PaymentSession> {
    this.created.push(request);
    const id = `cs_unit_${this.created.length}`;
    this.sessions.set(id, null);
    return { id, url: `https://pay.example/${id}` };
  }

  /** The signature is the word "valid"; the body is the delivery itself. */
  parseWebhook(rawBody: Buffer | string, signature: string): PaymentDelivery {
    if (signature !== 'valid') throw new WebhookSignatureError('bad signature');
    return JSON.parse(String(rawBody)) as PaymentDelivery;
  }

  async retrieveSession(sessionId: string): Promise<PaymentEvent | null> {
    this.retrieved.push(sessionId);
    if (this.retrieveError) throw this.retrieveError;
    return this.sessions.get(sessionId) ?? null;
  }

  async refund(paymentReference: string, amount: number, idempotencyKey: string) {
    this.refunds.push({ paymentReference, amount, idempotencyKey });
    return { id: `re_${idempotencyKey}` };
  }
}

/** A catalog that counts how often the checkout asked it for products. */
export class CountingCatalog extends FakeCatalog {
  productReads = 0;
  down = false;

  override async listProducts() {
    this.productReads += 1;
    if (this.down) throw new Error('WooCommerce answered 503');
    return super.listProducts();
  }
}

// Unit tests assert on state, not on log lines.
Logger.overrideLogger(false);

export function unitConfig(): AppConfig {
  return new AppConfig(
    parseConfig({
      STATIC_DIR: 'off',
      LOG_LEVEL: 'error',
      DATABASE_URL: 'sqlite::memory:',
      PUBLIC_URL: 'http://shop.test',
      CATALOG_TTL_SECONDS: '60',
    }),
  );
}

/** The order service over typed fakes: the in-memory store, payments and catalog. */
export function newOrderService(overrides: Partial<CheckoutOptions> = {}) {
  const signal = new JobSignal();
  const store = new InMemoryStore(undefined, signal);
  const payments = new FakePayments();
  const catalogPort = new CountingCatalog();
  const config = unitConfig();
  const catalog = new CatalogService(catalogPort, config, new HealthIndicators());
  const options = Object.assign(new CheckoutOptions(), overrides);
  let wakes = 0;
  signal.listen(() => (wakes += 1));
  const effects = new OrderEffects();
  // The tickets module's effects, as the app registers them (the success page's links are
  // not asked for here).
  new TicketEffects(effects, null as unknown as TicketService).onModuleInit();
  const holds = new Holds(new EventEmitter2());
  const sut = new OrderService(store, payments, catalog, options, config, holds, effects);
  return {
    sut,
    /** The same service, under its own name for fixtures built on this one. */
    orderService: sut,
    store,
    data: store.data,
    payments,
    catalog: catalogPort,
    catalogService: catalog,
    options,
    config,
    wakes: () => wakes,
  };
}

/** A line of product 101 (50 seats) as the checkout prices it. */
export function draftLine(overrides: Partial<DraftLine> = {}): DraftLine {
  return {
    productId: 101,
    variationId: null,
    productKey: 101,
    stock: 50,
    readAt: 0,
    name: 'Afterwork im Hafen',
    image: null,
    quantity: 2,
    unitAmount: 2500,
    discount: 0,
    refundedQuantity: 0,
    ...overrides,
  };
}

export function draft(
  lines: DraftLine[] = [draftLine()],
  totals?: Partial<OrderInput>,
): OrderDraft {
  const subtotal = lines.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0);
  return {
    totals: { subtotal, discount: 0, total: subtotal, email: null, ...totals },
    lines,
    couponCode: null,
    couponEntered: null,
    paymentMethod: 'card',
    successUrl: 'http://shop.test/success',
    cancelUrl: 'http://shop.test/cart',
  };
}

/** Places an order that waits for its payment, with the session the provider opened. */
export async function openOrder(
  fixture: Pick<ReturnType<typeof newOrderService>, 'orderService' | 'store' | 'payments'>,
  lines?: DraftLine[],
): Promise<Order> {
  const placed = await fixture.orderService.place(draft(lines));
  if (!('order' in placed)) throw new Error('the order did not fit');
  const sessionId = `cs_${placed.order.id}`;
  await fixture.store.orders.recordSession(placed.order.id, { id: sessionId, url: '' });
  fixture.payments.sessions.set(sessionId, null);
  return { ...placed.order, sessionId };
}

/** A neutral provider event about an order's session. */
export function paymentEvent(
  order: Order,
  type: PaymentEvent['type'],
  extra: Partial<PaymentEvent> = {},
): PaymentEvent {
  return {
    type,
    sessionId: order.sessionId,
    orderId: order.id,
    paymentReference: type === 'payment.succeeded' ? `pi_${order.id}` : null,
    email: null,
    name: null,
    ...extra,
  };
}

let deliveries = 0;
export function delivery(event: PaymentEvent | null, id = `evt_${++deliveries}`): PaymentDelivery {
  return { id, label: event ? `provider.${event.type}` : 'provider.other', test: false, event };
}
