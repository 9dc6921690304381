import { useMemo } from 'react';
import { create } from 'qrcode';
import styles from './tickets.module.css';

/** The standard's quiet zone: four light modules on every side, or scanners lose the edge. */
const QUIET_ZONE = 4;

/** One SVG path of the dark modules, one unit per module, quiet zone included. */
export function qrPath(text: string): { size: number; d: string } {
  // EC level M: a ~150-character token stays at version 8, coarse enough for a phone
  // camera reading a screen at arm's length.
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  let d = '';
  for (let row = 0; row < n; row += 1) {
    for (let col = 0; col < n; col += 1) {
      if (modules.data[row * n + col]) d += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { size: n + 2 * QUIET_ZONE, d };
}

export interface TicketQrProps {
  token: string;
  label: string;
}

/**
 * rules "Tickets and the door": the signed token as a QR code. Dark modules on white,
 * whatever the theme, drawn as crisp vector edges so it stays sharp at any width.
 */
export function TicketQr({ token, label }: TicketQrProps) {
  const { size, d } = useMemo(() => qrPath(token), [token]);
  return (
    <svg
      className={styles.qr}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      data-token={token}
    >
      <rect width={size} height={size} fill="#ffffff" />
      <path d={d} fill="#000000" />
    </svg>
  );
}
