import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { escapeHtml as esc } from '@awhh/machines';
import { handOffDifferences, shopOrderRecord } from '../catalog/adapters/woocommerce-handoff.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { AppConfig } from '../config/config.js';
import { JobHandlers } from '../jobs/job-handlers.js';
import { mailParagraph as p, renderMailLayout, renderMailText } from '../mail/mail-layout.js';
import { MailPort } from '../mail/mail.port.js';
import { type Order, OrderRepository } from '../orders/orders.port.js';
import { ShopOrders } from './shop-orders.js';
import { wooOrderState } from './woocommerce-webhook.js';

/** The daily check's job (docs/ledger.md "A hand-off is done only when the shop holds what was charged"). */
export const SHOP_VERIFY_JOB = 'shop-verify';
const DAY_MS = 24 * 60 * 60 * 1000;
/** More than any evening sells; the rest waits for the next day's run. */
const MAX_ORDERS = 2_000;

export interface VerifyFinding {
  orderId: string;
  catalogOrderId: string;
  /** German, for the organizer. */
  problems: string[];
  /** The site followed the shop (an order cancelled there whose news was lost). */
  fixed: boolean;
}

const VOID = new Set(['cancelled', 'refunded', 'failed', 'trash']);

/**
 * How one handed-off order stands in the shop: nothing when it holds what was charged; its
 * problems in German otherwise. `raw` is the shop's order (null: the shop has none).
 */
export function verifyOrder(
  order: Pick<Order, 'id' | 'couponCode'> & { catalogOrderId: string; total: number },
  lines: readonly { productId: number; variationId: number | null; quantity: number }[],
  raw: unknown,
): string[] {
  if (raw === null) {
    return [`Die Bestellung #${order.catalogOrderId} gibt es im Shop nicht (mehr).`];
  }
  const record = shopOrderRecord(raw);
  if (!record) return [`Die Bestellung #${order.catalogOrderId} ist im Shop nicht lesbar.`];
  if (VOID.has(record.status)) {
    return [
      `Die Bestellung #${record.id} steht im Shop auf „${record.status}“, ihre Tickets galten hier noch.`,
    ];
  }
  return handOffDifferences(record, {
    lines,
    total: order.total,
    couponCode: order.couponCode,
  }).map((d) => d.message);
}

/**
 * The handed-off orders of upcoming evenings checked against the shop, every day and on
 * request (`npm run shop:verify`): an order the shop cancelled, refunded or trashed whose
 * news never arrived is applied now (its tickets revoked, its places given back); any
 * other difference is reported. The organizer gets one mail listing them.
 */
@Injectable()
export class ShopVerification implements OnModuleInit {
  private readonly logger = new Logger('ShopVerify');

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(CatalogService) private readonly catalog: CatalogService,
    @Inject(OrderRepository) private readonly orders: OrderRepository,
    @Inject(ShopOrders) private readonly shopOrders: ShopOrders,
    @Inject(MailPort) private readonly mail: MailPort,
  ) {}

  onModuleInit(): void {
    if (!this.config.woocommerce) return;
    this.handlers.recurring(SHOP_VERIFY_JOB, {
      run: (now) => this.runAndTell(now),
      firstRunAt: (now) => now + DAY_MS,
      nextRunAt: (now) => now + DAY_MS,
    });
  }

  async run(now: number): Promise<VerifyFinding[]> {
    const since = new Date(now - 6 * 60 * 60 * 1000).toISOString();
    const findings: VerifyFinding[] = [];
    for (const order of await this.orders.handedOffUpcoming(since, MAX_ORDERS)) {
      const catalogOrderId = order.context.catalogOrderId!;
      const raw = await this.catalog.findOrder(catalogOrderId);
      const problems = verifyOrder(
        { id: order.id, couponCode: order.couponCode, catalogOrderId, total: order.context.total },
        await this.orders.lines(order.id),
        raw,
      );
      if (problems.length === 0) continue;
      let fixed = false;
      const state = raw === null ? null : wooOrderState(raw);
      if (state?.cancelled) {
        const outcome = await this.shopOrders.apply({
          key: `verify:${state.id}:${state.modifiedAt ?? now}`,
          label: 'shop:verify',
          quiet: true,
          state,
        });
        fixed = outcome === 'canceled';
      }
      findings.push({ orderId: order.id, catalogOrderId, problems, fixed });
    }
    return findings;
  }

  private async runAndTell(now: number): Promise<void> {
    const findings = await this.run(now);
    if (findings.length === 0) return;
    this.logger.warn({ msg: 'handed-off orders disagree with the shop', orders: findings.length });
    const to = this.config.organizerEmail;
    if (!to) return;
    const subject = `Abgleich mit dem Shop: ${findings.length} Bestellung${findings.length === 1 ? '' : 'en'} prüfen`;
    const lines = findings.map(
      (f) =>
        `${f.orderId} (Shop #${f.catalogOrderId}): ${f.problems.join(' ')}${f.fixed ? ' – hier nachgezogen: Tickets storniert, Plätze zurück.' : ''}`,
    );
    await this.mail.send({
      id: `shop-verify-${new Date(now).toISOString().slice(0, 10)}`,
      to,
      subject,
      html: renderMailLayout({
        title: subject,
        bodyHtml: [
          p(
            esc(
              'Der tägliche Abgleich hat Bestellungen kommender Abende gefunden, die im Shop anders stehen als hier:',
            ),
          ),
          ...lines.map((l) => p(esc(l))),
        ].join('\n'),
        publicUrl: this.config.publicUrl,
      }),
      text: renderMailText(
        [
          'Der tägliche Abgleich hat Bestellungen kommender Abende gefunden, die im Shop anders stehen als hier:',
          ...lines,
        ],
        this.config.publicUrl,
      ),
      attachments: [],
    });
  }
}
