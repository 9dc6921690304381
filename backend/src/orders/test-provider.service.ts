import { Inject, Injectable } from '@nestjs/common';
import { apiError } from '../common/api-error.js';
import { formatCents, toSessionStatus } from '@awhh/machines';
import { type Order, OrderRepository } from './orders.port.js';
import { parseBuyerForm, postedBuyerFields } from './buyer-details.js';
import { PaymentsPort } from './payments/payments.port.js';
import { TEST_PROVIDER_PATH, TestPaymentsAdapter } from './payments/test-payments.adapter.js';
import { withSessionId } from './session-url.js';
import { type BuyerForm, closedPage, paymentPage } from './test-provider.page.js';
import { WebhookService } from './webhook.service.js';

/** What the hosted page answers: a page, or where the browser goes next. */
export type TestProviderAnswer =
  { kind: 'page'; status: number; html: string } | { kind: 'redirect'; location: string };

/**
 * The test provider's hosted payment page (rules "Payments", embedded default). Paying
 * or cancelling sends a signed event through the same pipeline as a Stripe webhook.
 */
@Injectable()
export class TestProviderService {
  constructor(
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(WebhookService) private readonly webhooks: WebhookService,
  ) {}

  async show(sessionId: string): Promise<TestProviderAnswer> {
    const { order } = await this.session(sessionId);
    if (!isPayable(order)) {
      return { kind: 'page', status: 200, html: closedPage(sessionId, order) };
    }
    const form: BuyerForm = { values: { email: order.context.email ?? '', name: '' }, errors: {} };
    const lines = await this.orders.lines(order.id);
    return { kind: 'page', status: 200, html: paymentPage(sessionId, order, lines, form) };
  }

  /** "Jetzt bezahlen": e-mail and full name as Stripe Checkout asks for them (rules "Everything the shop sells"). */
  async pay(sessionId: string, body: unknown): Promise<TestProviderAnswer> {
    const { order, adapter } = await this.session(sessionId);
    if (!isPayable(order)) {
      return { kind: 'redirect', location: `${TEST_PROVIDER_PATH}/${sessionId}` };
    }
    const posted = postedBuyerFields(body);
    // An address given at the checkout is fixed on the page, as Stripe fixes
    // `customer_email`: whatever the form says, the order keeps it (its coupon was checked
    // for it, rules "Coupons").
    const email = order.context.email;
    const values = email !== null ? { ...posted, email } : posted;
    const result = parseBuyerForm(values);
    if (!result.ok) {
      // The page again, keeping what was typed, with a German message per field.
      const lines = await this.orders.lines(order.id);
      const form = { values, errors: result.errors };
      return { kind: 'page', status: 422, html: paymentPage(sessionId, order, lines, form) };
    }
    const { payload, signature } = adapter.complete(
      { id: sessionId, orderId: order.id },
      result.buyer,
    );
    await this.webhooks.deliver(payload, signature);
    return { kind: 'redirect', location: withSessionId(order.successUrl, sessionId) };
  }

  /** "Abbrechen": the session ends unpaid and the places are freed. */
  async cancel(sessionId: string): Promise<TestProviderAnswer> {
    const { order, adapter } = await this.session(sessionId);
    if (order.status === 'open') {
      const { payload, signature } = adapter.cancel({ id: sessionId, orderId: order.id });
      await this.webhooks.deliver(payload, signature);
    }
    return { kind: 'redirect', location: order.cancelUrl };
  }

  /**
   * "Zahlung erstatten (Testmodus)": refunds a paid test order in full, as the organizer
   * would in Stripe's dashboard; the order's tickets are revoked (rules "Tickets and the
   * door"). Anything else is left alone and the page shows the order as it is.
   */
  async refund(sessionId: string): Promise<TestProviderAnswer> {
    const { order, adapter } = await this.session(sessionId);
    const reference = order.context.paymentReference;
    // A disputed payment is with the bank; Stripe refunds none of it meanwhile.
    if (toSessionStatus(order.status) === 'paid' && order.status !== 'disputed' && reference) {
      const { payload, signature } = adapter.refundPayment(reference);
      await this.webhooks.deliver(payload, signature);
    }
    return { kind: 'redirect', location: `${TEST_PROVIDER_PATH}/${sessionId}` };
  }

  /**
   * "Teilweise erstatten (Testmodus)": part of a paid test order's payment goes back, as the
   * organizer would refund it in Stripe's dashboard, delivered as Stripe's `charge.refunded`
   * with what was refunded so far. The amount (euros, `betrag`) is checked here: more than
   * 0,00 € and no more than what was not refunded yet; the rest of the payment refunded
   * this way is a full refund, as at Stripe. Tickets the amount covers are revoked (rules
   * "Refunds"). A wrong amount shows the page again with a German message (422).
   */
  async refundPart(sessionId: string, body: unknown): Promise<TestProviderAnswer> {
    const { order, adapter } = await this.session(sessionId);
    const reference = order.context.paymentReference;
    if (!isRefundable(order) || !reference) {
      return { kind: 'redirect', location: `${TEST_PROVIDER_PATH}/${sessionId}` };
    }
    const raw = postedAmount(body);
    const refunded = order.context.refundedAmount ?? 0;
    const open = order.context.total - refunded;
    const parsed = parseRefundAmount(raw, open);
    if (!parsed.ok) {
      return {
        kind: 'page',
        status: 422,
        html: closedPage(sessionId, order, { value: raw, error: parsed.error }),
      };
    }
    const amountRefunded = refunded + parsed.cents;
    const { payload, signature } = adapter.refundPayment(
      reference,
      amountRefunded < order.context.total
        ? { amount: order.context.total, amountRefunded }
        : undefined,
    );
    await this.webhooks.deliver(payload, signature);
    return { kind: 'redirect', location: `${TEST_PROVIDER_PATH}/${sessionId}` };
  }

  /**
   * "Zahlungsstreit eröffnen" and "Streit gewonnen" (Testmodus): a chargeback as the buyer's
   * bank would open it in Stripe, and its close in the shop's favour. Opened, the order's
   * tickets are revoked; won, they admit again. Anything else is left alone.
   */
  async dispute(sessionId: string, outcome: 'opened' | 'won'): Promise<TestProviderAnswer> {
    const { order, adapter } = await this.session(sessionId);
    const reference = order.context.paymentReference;
    const applies =
      outcome === 'won'
        ? order.status === 'disputed'
        : toSessionStatus(order.status) === 'paid' && order.status !== 'disputed';
    if (applies && reference) {
      const { payload, signature } = adapter.disputePayment(reference, outcome);
      await this.webhooks.deliver(payload, signature);
    }
    return { kind: 'redirect', location: `${TEST_PROVIDER_PATH}/${sessionId}` };
  }

  private async session(sessionId: string) {
    const adapter = this.payments;
    if (!(adapter instanceof TestPaymentsAdapter)) {
      throw apiError(404, 'Den Testmodus gibt es nur ohne Stripe-Konfiguration.');
    }
    const order = await this.orders.find({ sessionId });
    if (!order || order.provider !== 'test') {
      throw apiError(404, 'Diese Testzahlung kennen wir nicht.');
    }
    return { order, adapter };
  }
}

/** A paid test order whose money is not with the bank (Stripe refunds none of a disputed one). */
function isRefundable(order: Order): boolean {
  return toSessionStatus(order.status) === 'paid' && order.status !== 'disputed';
}

function postedAmount(body: unknown): string {
  const value = (body as { betrag?: unknown } | null)?.betrag;
  return typeof value === 'string' ? value.slice(0, 40) : '';
}

/**
 * An amount in euros as a German page takes it: "12,50", "12.50" or "12"; at most two
 * decimals, more than 0 and at most `open` cents.
 */
export function parseRefundAmount(
  raw: string,
  open: number,
): { ok: true; cents: number } | { ok: false; error: string } {
  const text = raw.trim().replace(/\s*€$/, '');
  if (text === '') return { ok: false, error: 'Bitte gib einen Betrag in Euro ein, z. B. 12,50.' };
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(text);
  if (!match) {
    return {
      ok: false,
      error: 'Bitte gib den Betrag in Euro mit höchstens zwei Nachkommastellen an, z. B. 12,50.',
    };
  }
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents <= 0) return { ok: false, error: 'Der Betrag muss größer als 0,00 € sein.' };
  if (cents > open) {
    return {
      ok: false,
      error: `Es sind höchstens ${formatCents(open)} erstattbar.`,
    };
  }
  return { ok: true, cents };
}

function isPayable(order: Order): boolean {
  return order.status === 'open' && order.expiresAt > Date.now();
}
