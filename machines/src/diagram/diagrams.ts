import { cartMachine } from '../cart/cart.machine.js';
import { checkoutMachine } from '../checkout/checkout.machine.js';
import { couponMachine } from '../coupon/coupon.machine.js';
import { doorMachine } from '../door/door.machine.js';
import { orderMachine } from '../order/order.machine.js';
import { ticketReturnMachine } from '../order/ticket-return.machine.js';
import { diagramDocument } from './mermaid.js';

/** Every machine of the project with its diagram file under docs/machines/. */
export function machineDiagrams(): { file: string; content: string }[] {
  return [
    { file: 'cart.md', content: diagramDocument(cartMachine, 'Cart machine (cartMachine)') },
    {
      file: 'coupon.md',
      content: diagramDocument(couponMachine, 'Coupon machine (couponMachine)'),
    },
    {
      file: 'checkout.md',
      content: diagramDocument(checkoutMachine, 'Checkout machine (checkoutMachine)'),
    },
    {
      file: 'order.md',
      // A ticket given back is part of an order's life; its refund runs through the order.
      content: `${diagramDocument(orderMachine, 'Order machine (orderMachine)')}\n${diagramDocument(
        ticketReturnMachine,
        'A ticket given back (ticketReturnMachine)',
      ).replace(/^# /, '## ')}`,
    },
    {
      file: 'door.md',
      content: diagramDocument(doorMachine, 'Door check-in machine (doorMachine)'),
    },
  ];
}
