import { setting } from './setting';

// The only module that reads import.meta.env (jest maps it to env.jest.ts). It ships with
// every page, so it holds only what the shell needs; the operator's details for the legal
// pages are in operator.ts.
const e = import.meta.env;

export const env = {
  xstateInspect: e.VITE_XSTATE_INSPECT === 'true',
  productName: setting(e.VITE_PRODUCT_NAME, 'After Work Hamburg'),
} as const;

/** The build's settings as given, for operator.ts (VITE_OPERATOR_*). */
export const buildSettings: Partial<ImportMetaEnv> = e;

export type Env = typeof env;
