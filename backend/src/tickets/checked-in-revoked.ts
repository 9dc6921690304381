import { formatTicketCode } from '@awhh/machines';
import { raiseOrganizerNotice } from '../notices/organizer-notices.port.js';
import type { Transaction } from '../store/store.port.js';
import { TicketRepository } from './tickets.port.js';

/**
 * docs/ledger.md "Told to the organizer": tickets the shop's refund or cancellation took
 * although their guests were let in already. Called in the transaction that revokes
 * `ticketIds`, before or after it; raises one notice for those of them that were checked
 * in, none when no guest was. `key` makes a repeated report raise nothing new.
 */
export async function tellOrganizerOfCheckedIn(
  tx: Transaction,
  change: { orderId: string; shopOrder: string | null; key: string },
  ticketIds: readonly string[],
  now: number,
): Promise<void> {
  const wanted = new Set(ticketIds);
  const checkedIn = new Set(
    (await tx.get(TicketRepository).refundable(change.orderId))
      .filter((t) => t.checkedIn && wanted.has(t.id))
      .map((t) => t.id),
  );
  if (checkedIn.size === 0) return;
  const items = (await tx.get(TicketRepository).forOrder(change.orderId))
    .filter((t) => checkedIn.has(t.id))
    .map(
      (t) =>
        `${t.eventName}${t.tier ? ` · ${t.tier}` : ''}, Ticket ${t.seat} von ${t.seats}` +
        (t.code ? ` (Code ${formatTicketCode(t.code)})` : ''),
    );
  await raiseOrganizerNotice(
    tx,
    { kind: 'checkedInRevoked', orderId: change.orderId, shopOrder: change.shopOrder, items },
    `${change.key}:${[...checkedIn].sort().join(',')}`,
    now,
  );
}
