// The only module that reads import.meta.env (jest maps it to env.jest.ts).
// Operator details belong in the build configuration (VITE_OPERATOR_*); the fallbacks are
// visibly marked placeholders so that an unconfigured build cannot pass for a real imprint.
const e = import.meta.env;

function value(raw: string | undefined, fallback: string): string {
  return raw && raw.trim() !== '' ? raw.trim() : fallback;
}

export const env = {
  xstateInspect: e.VITE_XSTATE_INSPECT === 'true',
  productName: value(e.VITE_PRODUCT_NAME, 'After Work Hamburg'),
  operator: {
    name: value(e.VITE_OPERATOR_NAME, 'After Work Hamburg GmbH (Beispiel – bitte konfigurieren)'),
    street: value(e.VITE_OPERATOR_STREET, 'Musterstraße 1 (Beispiel)'),
    city: value(e.VITE_OPERATOR_CITY, '20095 Hamburg'),
    representative: value(e.VITE_OPERATOR_REPRESENTATIVE, 'Max Mustermann (Beispiel)'),
    email: value(e.VITE_OPERATOR_EMAIL, 'kontakt@example.org'),
    phone: value(e.VITE_OPERATOR_PHONE, '+49 40 000000 (Beispiel)'),
    register: value(e.VITE_OPERATOR_REGISTER, 'Amtsgericht Hamburg, HRB 000000 (Beispiel)'),
    vatId: value(e.VITE_OPERATOR_VAT_ID, 'DE000000000 (Beispiel)'),
  },
} as const;

export type Env = typeof env;
