import { escapeHtml, formatCents, lineTotalCents, toSessionStatus } from '@awhh/machines';
import type { Order, OrderLine } from './orders.port.js';
import type { BuyerField } from './buyer-details.js';
import { TEST_PROVIDER_PATH } from './payments/test-payments.adapter.js';

// The test provider's hosted pages (rules "Payments", embedded default): plain HTML with
// no script, marked "Testmodus".

export const STYLES = `
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f4f4f5;color:#18181b}
main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px}
.badge{display:inline-block;padding:.25rem .75rem;border-radius:999px;background:#fde047;color:#422006;font-weight:700}
table{width:100%;border-collapse:collapse;margin:1rem 0}
td{padding:.4rem 0;border-bottom:1px solid #e4e4e7}
td.amount{text-align:right;white-space:nowrap}
tr.total td{font-weight:700;border-bottom:0}
.field{margin:0 0 1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{box-sizing:border-box;width:100%;font:inherit;padding:.6rem .75rem;border:1px solid #71717a;border-radius:8px}
input[aria-invalid=true]{border-color:#b91c1c}
.error{color:#b91c1c;margin:.25rem 0 0}
input[readonly]{background:#f4f4f5;border-style:dashed}
.note{color:#52525b;font-size:.875rem;margin:.25rem 0 0}
.summary{border:2px solid #b91c1c;border-radius:8px;padding:.5rem 1rem;margin:1rem 0}
.summary a{color:#b91c1c}
.actions{display:flex;gap:.75rem;flex-wrap:wrap}
button{font:inherit;padding:.75rem 1.25rem;border-radius:8px;border:1px solid #18181b;cursor:pointer}
button.pay{background:#18181b;color:#fff}
button.cancel{background:#fff;color:#18181b}
form.partial{border-top:1px solid #e4e4e7;margin-top:1rem;padding-top:1rem}
.hint{color:#52525b;font-size:.875rem;margin:.25rem 0 0}
`;

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

/** What the buyer typed and what is wrong with it; empty on the first visit. */
export interface BuyerForm {
  values: Record<BuyerField, string>;
  errors: Partial<Record<BuyerField, string>>;
}

const FIELDS: {
  name: BuyerField;
  label: string;
  type: string;
  autocomplete: string;
  max: number;
}[] = [
  { name: 'email', label: 'E-Mail-Adresse', type: 'email', autocomplete: 'email', max: 254 },
  { name: 'name', label: 'Vollständiger Name', type: 'text', autocomplete: 'name', max: 120 },
];

/** A field the buyer cannot change: the e-mail address given at the checkout. */
const FIXED_NOTE =
  'Diese Adresse hast du bei der Bestellung angegeben; sie lässt sich hier nicht ändern.';

function field(
  f: (typeof FIELDS)[number],
  form: BuyerForm,
  focus: boolean,
  fixed: boolean,
): string {
  const error = form.errors[f.name];
  const errorId = `${f.name}-fehler`;
  const noteId = `${f.name}-hinweis`;
  const invalid = error ? ` aria-invalid="true" aria-describedby="${errorId}"` : '';
  const readonly = fixed ? ` readonly aria-describedby="${noteId}"` : '';
  return `<div class="field">
<label for="${f.name}">${f.label}</label>
<input id="${f.name}" name="${f.name}" type="${f.type}" autocomplete="${f.autocomplete}" required maxlength="${f.max}" value="${escapeHtml(form.values[f.name])}"${fixed ? readonly : invalid}${focus && !fixed ? ' autofocus' : ''}>
${fixed ? `<p class="note" id="${noteId}">${FIXED_NOTE}</p>` : ''}
${error && !fixed ? `<p class="error" id="${errorId}">${escapeHtml(error)}</p>` : ''}
</div>`;
}

export function paymentPage(
  sessionId: string,
  order: Order,
  lines: readonly OrderLine[],
  form: BuyerForm,
): string {
  const rows = lines
    .map(
      (l) =>
        `<tr><td>${l.quantity} × ${escapeHtml(l.name)}</td><td class="amount">${formatCents(lineTotalCents(l))}</td></tr>`,
    )
    .join('\n');
  // rules "Everything the shop sells": the coupon as the visitor typed it.
  const coupon = order.couponEntered ?? order.couponCode ?? '';
  const discount =
    order.context.discount > 0
      ? `<tr><td>Gutschein ${escapeHtml(coupon)}</td><td class="amount">−${formatCents(order.context.discount)}</td></tr>`
      : '';
  const action = `${TEST_PROVIDER_PATH}/${encodeURIComponent(sessionId)}`;
  const invalid = FIELDS.filter((f) => form.errors[f.name]);
  const summary =
    invalid.length > 0
      ? `<div class="summary" role="alert"><p>Bitte prüfe deine Angaben:</p><ul>${invalid
          .map((f) => `<li><a href="#${f.name}">${escapeHtml(form.errors[f.name]!)}</a></li>`)
          .join('')}</ul></div>`
      : '';
  // A plain form, no script (works under a strict Content-Security-Policy). It asks for
  // e-mail and full name as Stripe Checkout does (rules "Everything the shop sells");
  // the browser checks them first, the server again. An address given at the checkout is
  // fixed, as Stripe fixes `customer_email` (rules "Coupons": the coupon was checked for it).
  // "Abbrechen" posts the same form to the cancel route without the browser's checks.
  const fixedEmail = order.context.email !== null;
  return page(
    invalid.length > 0
      ? 'Fehler: Testzahlung – After Work Hamburg'
      : 'Testzahlung – After Work Hamburg',
    `<h1>Testzahlung</h1>
<p>Dies ist der eingebaute Testmodus. Es wird kein Geld bewegt; die Bestellung wird wie eine echte Zahlung verarbeitet.</p>
<table>
${rows}
${discount}
<tr class="total"><td>Gesamt</td><td class="amount">${formatCents(order.context.total)}</td></tr>
</table>
${summary}
<form method="post" action="${action}/pay">
${FIELDS.map((f) => field(f, form, f === invalid[0], fixedEmail && f.name === 'email')).join('\n')}
<div class="actions">
<button class="pay" type="submit">Jetzt bezahlen</button>
<button class="cancel" type="submit" formaction="${action}/cancel" formnovalidate>Abbrechen</button>
</div>
</form>`,
  );
}

/** What was typed into "Teilweise erstatten" and why it was refused. */
export interface RefundForm {
  value: string;
  error: string;
}

/**
 * rules "Refunds": part of the payment back, in euros, as the organizer would refund it in
 * Stripe's dashboard. A plain form; the server checks the amount.
 */
function partialRefundForm(action: string, order: Order, form?: RefundForm): string {
  const open = order.context.total - (order.context.refundedAmount ?? 0);
  const invalid = form
    ? ' aria-invalid="true" aria-describedby="betrag-fehler betrag-hinweis"'
    : ' aria-describedby="betrag-hinweis"';
  return `<form class="partial" method="post" action="${action}/refund/partial">
<div class="field">
<label for="betrag">Betrag in Euro</label>
<input id="betrag" name="betrag" type="text" inputmode="decimal" autocomplete="off" required maxlength="12" placeholder="z. B. 12,50" value="${escapeHtml(form?.value ?? '')}"${invalid}${form ? ' autofocus' : ''}>
<p class="hint" id="betrag-hinweis">Höchstens ${formatCents(open)}. Deckt der Betrag ganze Tickets, werden so viele Tickets storniert; sonst bleiben alle gültig.</p>
${form ? `<p class="error" id="betrag-fehler" role="alert">${escapeHtml(form.error)}</p>` : ''}
</div>
<button class="cancel" type="submit">Teilweise erstatten (Testmodus)</button>
</form>`;
}

export function closedPage(sessionId: string, order: Order, refundForm?: RefundForm): string {
  const disputed = order.status === 'disputed';
  const paid = toSessionStatus(order.status) === 'paid' && !disputed;
  const text = disputed
    ? 'Die Bank hat diese Zahlung angefochten (Zahlungsstreit); bis zur Entscheidung sind die Tickets der Bestellung storniert.'
    : paid
      ? 'Diese Bestellung ist bereits bezahlt.'
      : order.status === 'refunded'
        ? 'Diese Zahlung wurde erstattet; die Tickets der Bestellung sind storniert.'
        : 'Diese Zahlung ist abgelaufen oder wurde abgebrochen.';
  // What would happen in Stripe's dashboard: the organizer refunds the whole payment, or the
  // buyer's bank opens a chargeback and later decides it for the shop. Refund and
  // chargeback revoke the order's tickets, a won dispute restores them.
  const action = `${TEST_PROVIDER_PATH}/${encodeURIComponent(sessionId)}`;
  const button = (path: string, label: string) =>
    `<form method="post" action="${action}/${path}">
<button class="cancel" type="submit">${label}</button>
</form>`;
  const actions =
    order.provider !== 'test'
      ? ''
      : paid
        ? button('refund', 'Zahlung erstatten (Testmodus)') +
          button('dispute', 'Zahlungsstreit eröffnen (Testmodus)') +
          partialRefundForm(action, order, refundForm)
        : disputed
          ? button('dispute/won', 'Zahlungsstreit gewonnen (Testmodus)')
          : '';
  // rules "Refunds": what went back so far, while the order is still paid.
  const refunded = order.context.refundedAmount ?? 0;
  const partly =
    paid && refunded > 0
      ? `<p>Bisher erstattet: ${formatCents(refunded)} von ${formatCents(order.context.total)}.</p>`
      : '';
  return page(
    refundForm ? 'Fehler: Testzahlung – After Work Hamburg' : 'Testzahlung – After Work Hamburg',
    `<h1>Testzahlung</h1><p>${text}</p>${partly}${actions}<p><a href="${escapeHtml(order.cancelUrl)}">Zurück zum Shop</a></p>`,
  );
}
