// Jest stand-in for env.ts: import.meta.env does not exist outside Vite.
export const env = {
  xstateInspect: false,
  productName: 'After Work Hamburg',
  operator: {
    name: 'After Work Hamburg GmbH (Beispiel – bitte konfigurieren)',
    street: 'Musterstraße 1 (Beispiel)',
    city: '20095 Hamburg',
    representative: 'Max Mustermann (Beispiel)',
    email: 'kontakt@example.org',
    phone: '+49 40 000000 (Beispiel)',
    register: 'Amtsgericht Hamburg, HRB 000000 (Beispiel)',
    vatId: 'DE000000000 (Beispiel)',
  },
} as const;
