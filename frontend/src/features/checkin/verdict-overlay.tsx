import { useEffect, useRef } from 'react';
import { type DoorVerdict, verdictText } from '@awhh/machines';
import styles from './door.module.css';

const ICON: Record<'valid' | 'warning' | 'danger', string> = {
  valid: '✓',
  warning: '!',
  danger: '✕',
};

export interface VerdictOverlayProps {
  verdict: DoorVerdict;
  onDismiss: () => void;
}

/**
 * The verdict over the whole screen, readable from a metre away in a dark club
 * (rules "Tickets and the door"): colour, symbol and one word, then the details.
 */
export function VerdictOverlay({ verdict, onDismiss }: VerdictOverlayProps) {
  const { tone, title, detail } = verdictText(verdict);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Keyboard users continue with Enter; the camera keeps scanning underneath anyway.
    if (document.activeElement === document.body) button.current?.focus({ preventScroll: true });
  }, [verdict]);
  return (
    <div className={`${styles.verdict} ${styles[tone]}`} data-verdict={verdict.kind}>
      <span className={styles.verdictIcon} aria-hidden="true">
        {ICON[tone]}
      </span>
      <p className={styles.verdictTitle}>{title}</p>
      {detail ? <p className={styles.verdictDetail}>{detail}</p> : null}
      <button ref={button} type="button" className={styles.verdictNext} onClick={onDismiss}>
        Weiter scannen
      </button>
    </div>
  );
}
