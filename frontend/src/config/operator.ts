import { buildSettings as e } from '@/config/env';
import { setting } from './setting';

// The operator's details for /impressum and /datenschutz, the only pages that show them:
// here rather than in env.ts, which every page loads. They belong in the build
// configuration (VITE_OPERATOR_*); the fallbacks are visibly marked placeholders so that an
// unconfigured build cannot pass for a real imprint.
export const operator = {
  name: setting(e.VITE_OPERATOR_NAME, 'After Work Hamburg GmbH (Beispiel – bitte konfigurieren)'),
  street: setting(e.VITE_OPERATOR_STREET, 'Musterstraße 1 (Beispiel)'),
  city: setting(e.VITE_OPERATOR_CITY, '20095 Hamburg'),
  representative: setting(e.VITE_OPERATOR_REPRESENTATIVE, 'Max Mustermann (Beispiel)'),
  email: setting(e.VITE_OPERATOR_EMAIL, 'kontakt@example.org'),
  phone: setting(e.VITE_OPERATOR_PHONE, '+49 40 000000 (Beispiel)'),
  register: setting(e.VITE_OPERATOR_REGISTER, 'Amtsgericht Hamburg, HRB 000000 (Beispiel)'),
  vatId: setting(e.VITE_OPERATOR_VAT_ID, 'DE000000000 (Beispiel)'),
} as const;
