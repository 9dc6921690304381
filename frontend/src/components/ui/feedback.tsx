import type { CSSProperties, ReactNode } from 'react';
import { Button } from './button';
import styles from './feedback.module.css';

export function Skeleton({
  width,
  height,
  style,
}: {
  width?: string;
  height?: string;
  style?: CSSProperties;
}) {
  return (
    <span aria-hidden="true" className={styles.skeleton} style={{ width, height, ...style }} />
  );
}

/** A region announced as busy while its content loads. */
export function Loading({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true">
      <span className="visually-hidden">{label}</span>
      {children}
    </div>
  );
}

type Tone = 'error' | 'success' | 'info';

export function Alert({
  tone,
  title,
  children,
}: {
  tone: Tone;
  title?: string;
  children?: ReactNode;
}) {
  return (
    <div className={`${styles.alert} ${styles[tone]}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title ? <strong className={styles.alertTitle}>{title}</strong> : null}
      {children}
    </div>
  );
}

/** Error state with retry (rules "Errors": the cart is never lost): the message from the server, and a way back. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className={styles.errorState}>
      <Alert tone="error" title="Das hat nicht geklappt">
        <p>{message}</p>
      </Alert>
      {onRetry ? (
        <Button variant="secondary" onClick={onRetry}>
          Erneut versuchen
        </Button>
      ) : null}
    </div>
  );
}
