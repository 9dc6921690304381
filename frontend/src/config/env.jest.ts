// Jest stand-in for env.ts: import.meta.env does not exist outside Vite.
export const env = {
  xstateInspect: false,
  productName: 'After Work Hamburg',
} as const;

/** No VITE_OPERATOR_* settings: operator.ts shows its placeholders. */
export const buildSettings: Partial<ImportMetaEnv> = {};
