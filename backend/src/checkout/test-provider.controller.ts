import { Controller, Get, Header, Inject, Param, Post, Res } from '@nestjs/common';
import { formatCents } from '@awhh/machines';
import { apiError } from '../common/api-error.js';
import { StoreDatabase } from '../store/store.database.js';
import { findOrder, orderLines, type OrderLineRow, type OrderRow } from './checkout.repository.js';
import { withSessionId } from './checkout.service.js';
import { OrderEventsService } from './order-events.service.js';
import { PaymentsPort } from './payments/payments.port.js';
import { TEST_PROVIDER_PATH, TestPaymentsAdapter } from './payments/test-payments.adapter.js';

interface Reply {
  code(status: number): Reply;
  header(name: string, value: string): Reply;
  type(contentType: string): Reply;
  send(body?: string): Reply;
}

const STYLES = `
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f4f4f5;color:#18181b}
main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px}
.badge{display:inline-block;padding:.25rem .75rem;border-radius:999px;background:#fde047;color:#422006;font-weight:700}
table{width:100%;border-collapse:collapse;margin:1rem 0}
td{padding:.4rem 0;border-bottom:1px solid #e4e4e7}
td.amount{text-align:right;white-space:nowrap}
tr.total td{font-weight:700;border-bottom:0}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
button{font:inherit;padding:.75rem 1.25rem;border-radius:8px;border:1px solid #18181b;cursor:pointer}
button.pay{background:#18181b;color:#fff}
button.cancel{background:#fff;color:#18181b}
`;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${TEST_PROVIDER_PATH}/assets/page.css">
</head>
<body><main>
<p class="badge">Testmodus</p>
${body}
</main></body>
</html>`;
}

function paymentPage(sessionId: string, order: OrderRow, lines: OrderLineRow[]): string {
  const rows = lines
    .map(
      (l) =>
        `<tr><td>${l.quantity} × ${escapeHtml(l.name)}</td><td class="amount">${formatCents(l.unit_amount * l.quantity)}</td></tr>`,
    )
    .join('\n');
  const discount =
    order.discount > 0
      ? `<tr><td>Gutschein ${escapeHtml(order.coupon_code ?? '')}</td><td class="amount">−${formatCents(order.discount)}</td></tr>`
      : '';
  const action = `${TEST_PROVIDER_PATH}/${encodeURIComponent(sessionId)}`;
  // Plain forms, no script (works under a strict Content-Security-Policy). text/plain is
  // the encoding Fastify reads without an extra body parser; the forms carry no fields.
  return page(
    'Testzahlung – After Work Hamburg',
    `<h1>Testzahlung</h1>
<p>Dies ist der eingebaute Testmodus. Es wird kein Geld bewegt; die Bestellung wird wie eine echte Zahlung verarbeitet.</p>
<table>
${rows}
${discount}
<tr class="total"><td>Gesamt</td><td class="amount">${formatCents(order.total)}</td></tr>
</table>
<div class="actions">
<form method="post" action="${action}/pay" enctype="text/plain"><button class="pay" type="submit">Jetzt bezahlen</button></form>
<form method="post" action="${action}/cancel" enctype="text/plain"><button class="cancel" type="submit">Abbrechen</button></form>
</div>`,
  );
}

function closedPage(order: OrderRow): string {
  const text =
    order.status === 'paid'
      ? 'Diese Bestellung ist bereits bezahlt.'
      : 'Diese Zahlung ist abgelaufen oder wurde abgebrochen.';
  return page(
    'Testzahlung – After Work Hamburg',
    `<h1>Testzahlung</h1><p>${text}</p><p><a href="${escapeHtml(order.cancel_url)}">Zurück zum Shop</a></p>`,
  );
}

/** The test provider's hosted payment page (DESIGN "payments", embedded default). */
@Controller('checkout/test-provider')
export class TestProviderController {
  constructor(
    @Inject(PaymentsPort) private readonly payments: PaymentsPort,
    @Inject(StoreDatabase) private readonly store: StoreDatabase,
    @Inject(OrderEventsService) private readonly events: OrderEventsService,
  ) {}

  @Get('assets/page.css')
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'public, max-age=3600')
  styles(): string {
    return STYLES;
  }

  @Get(':sessionId')
  async show(@Param('sessionId') sessionId: string, @Res() reply: Reply): Promise<void> {
    const { order } = await this.openSession(sessionId);
    const open = order.status === 'open' && order.expires_at > Date.now();
    const html = open
      ? paymentPage(sessionId, order, await orderLines(this.store.db, order.id))
      : closedPage(order);
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .send(html);
  }

  @Post(':sessionId/pay')
  async pay(@Param('sessionId') sessionId: string, @Res() reply: Reply): Promise<void> {
    const { order, adapter } = await this.openSession(sessionId);
    if (order.status !== 'open' || order.expires_at <= Date.now()) {
      reply.code(303).header('location', `${TEST_PROVIDER_PATH}/${sessionId}`).send();
      return;
    }
    const { payload, signature } = adapter.signedEvent('checkout.session.completed', {
      id: sessionId,
      orderId: order.id,
    });
    await this.events.deliver(payload, signature);
    reply.code(303).header('location', withSessionId(order.success_url, sessionId)).send();
  }

  @Post(':sessionId/cancel')
  async cancel(@Param('sessionId') sessionId: string, @Res() reply: Reply): Promise<void> {
    const { order, adapter } = await this.openSession(sessionId);
    if (order.status === 'open') {
      const { payload, signature } = adapter.signedEvent('checkout.session.expired', {
        id: sessionId,
        orderId: order.id,
      });
      await this.events.deliver(payload, signature);
    }
    reply.code(303).header('location', order.cancel_url).send();
  }

  private async openSession(sessionId: string) {
    const adapter = this.payments;
    if (!(adapter instanceof TestPaymentsAdapter)) {
      throw apiError(404, 'Den Testmodus gibt es nur ohne Stripe-Konfiguration.');
    }
    const order = await findOrder(this.store.db, { sessionId });
    if (!order || order.provider !== 'test') {
      throw apiError(404, 'Diese Testzahlung kennen wir nicht.');
    }
    return { order, adapter };
  }
}
