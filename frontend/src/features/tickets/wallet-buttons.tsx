import { useEffect, useState } from 'react';
import { ApiRequestError, apiGet } from '@/lib/api-client';
import styles from './wallet-buttons.module.css';

/** rules "Wallet passes": which wallets the site offers, and a ticket's pass in each. */
export const walletApi = {
  options: '/api/tickets/wallet',
  apple: (token: string) => `/api/tickets/${encodeURIComponent(token)}/wallet/apple`,
  google: (token: string) => `/api/tickets/${encodeURIComponent(token)}/wallet/google`,
} as const;

export interface WalletOptions {
  apple: boolean;
  google: boolean;
}

export interface WalletButtonsProps {
  token: string;
  /** Where Google's save link is opened; the page itself by default. */
  openUrl?: (url: string) => void;
}

/**
 * rules "Wallet passes": "Zu Apple Wallet hinzufügen" (the signed pass, which Safari hands
 * to Wallet) and "Zu Google Wallet hinzufügen" (a save link made on request), each only
 * when the site is set up for it. Nothing shows until the site has said so.
 */
export function WalletButtons({
  token,
  openUrl = (url) => window.location.assign(url),
}: WalletButtonsProps) {
  const [options, setOptions] = useState<WalletOptions | null>(null);
  const [google, setGoogle] = useState<'idle' | 'loading' | { error: string }>('idle');

  useEffect(() => {
    const controller = new AbortController();
    apiGet<WalletOptions>(walletApi.options, controller.signal)
      .then(setOptions)
      // Without the answer no wallet is offered; the ticket itself is unaffected.
      .catch(() => undefined);
    return () => controller.abort();
  }, []);

  if (!options || (!options.apple && !options.google)) return null;

  async function addToGoogle() {
    setGoogle('loading');
    try {
      const { url } = await apiGet<{ url: string }>(walletApi.google(token));
      openUrl(url);
      setGoogle('idle');
    } catch (error) {
      setGoogle({
        error:
          error instanceof ApiRequestError
            ? error.message
            : 'Google Wallet ist gerade nicht erreichbar. Bitte versuche es erneut.',
      });
    }
  }

  return (
    <div className={styles.wallet}>
      <div className={styles.buttons}>
        {options.apple ? (
          <a className={styles.button} href={walletApi.apple(token)}>
            Zu Apple Wallet hinzufügen
          </a>
        ) : null}
        {options.google ? (
          <button
            type="button"
            className={styles.button}
            onClick={() => void addToGoogle()}
            disabled={google === 'loading'}
            aria-busy={google === 'loading'}
          >
            {google === 'loading' ? 'Wird vorbereitet …' : 'Zu Google Wallet hinzufügen'}
          </button>
        ) : null}
      </div>
      {typeof google === 'object' ? (
        <p className={styles.error} role="alert">
          {google.error}
        </p>
      ) : null}
    </div>
  );
}
