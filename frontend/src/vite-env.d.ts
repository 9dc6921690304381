/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_XSTATE_INSPECT?: string;
  readonly VITE_PRODUCT_NAME?: string;
  readonly VITE_OPERATOR_NAME?: string;
  readonly VITE_OPERATOR_STREET?: string;
  readonly VITE_OPERATOR_CITY?: string;
  readonly VITE_OPERATOR_REPRESENTATIVE?: string;
  readonly VITE_OPERATOR_EMAIL?: string;
  readonly VITE_OPERATOR_PHONE?: string;
  readonly VITE_OPERATOR_REGISTER?: string;
  readonly VITE_OPERATOR_VAT_ID?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** Build-time literal from VITE_XSTATE_INSPECT (vite.config.ts `define`). */
declare const __XSTATE_INSPECT__: boolean;
