import { z } from 'zod';

/**
 * The buyer as the payment page collects them (rules "Everything the shop sells"): Stripe
 * Checkout asks for e-mail and full name, the test provider's page asks the same way.
 */
export interface BuyerDetails {
  email: string;
  name: string;
}

export type BuyerField = keyof BuyerDetails;

export const NAME_MESSAGE = 'Bitte gib deinen vollständigen Namen ein.';
export const NAME_TOO_LONG_MESSAGE = 'Der Name ist zu lang (höchstens 120 Zeichen).';
export const EMAIL_MESSAGE = 'Bitte gib eine gültige E-Mail-Adresse ein.';

/** Single spaces, no control characters: the name ends up in WooCommerce and in e-mails. */
export function normalizeName(raw: string): string {
  return raw
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The test provider's form; the same limits as the contact form's name and e-mail. */
const buyerFormSchema = z.object({
  email: z.string().trim().email(EMAIL_MESSAGE).max(254, EMAIL_MESSAGE),
  name: z
    .string()
    .transform(normalizeName)
    .pipe(z.string().min(2, NAME_MESSAGE).max(120, NAME_TOO_LONG_MESSAGE)),
});

export type BuyerFormResult =
  { ok: true; buyer: BuyerDetails } | { ok: false; errors: Partial<Record<BuyerField, string>> };

/** The posted fields as typed; a missing or malformed field counts as empty. */
export function postedBuyerFields(body: unknown): Record<BuyerField, string> {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { email: text(fields.email), name: text(fields.name) };
}

/** Validates the posted fields: the buyer, or one German message per field. */
export function parseBuyerForm(fields: Record<BuyerField, string>): BuyerFormResult {
  const parsed = buyerFormSchema.safeParse(fields);
  if (parsed.success) return { ok: true, buyer: parsed.data };
  const errors: Partial<Record<BuyerField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'name') && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/**
 * WooCommerce keeps first and last name apart; the payment page asks for one full name.
 * The last word is the last name, the rest the first name; a single word is a first name.
 */
export function splitName(fullName: string): { firstName: string; lastName: string } {
  const words = normalizeName(fullName).split(' ').filter(Boolean);
  if (words.length <= 1) return { firstName: words[0] ?? '', lastName: '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1]! };
}
