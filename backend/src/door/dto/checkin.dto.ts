import { z } from 'zod';
import type { ScanStatus } from '../door.port.js';

/**
 * rules "Tickets and the door": the door page's wire shapes. The sync body is fixed by
 * the rules (`{scans: [{scanId, token, scannedAt, device}]}`); the rest is this module's.
 */

/** Scans per sync: a full evening's offline queue at a busy door in one request. */
export const MAX_SCANS_PER_SYNC = 500;

export const scanSchema = z.object({
  /** Made by the device (a UUID); the same id sent again is the same scan. */
  scanId: z.string().trim().min(1).max(100),
  /** The QR code's content. Anything longer than ours is answered "invalid", not refused. */
  token: z.string().max(2000),
  /** When the device scanned: ISO 8601 or epoch milliseconds. */
  scannedAt: z.union([z.number().int().min(0), z.iso.datetime({ offset: true })]),
  /** The device's name as the door staff set it ("Tür 1"); shown to the other devices. */
  device: z.string().trim().min(1).max(64),
});
export type ScanInput = z.infer<typeof scanSchema>;

export const scanSyncSchema = z.object({
  scans: z
    .array(scanSchema)
    .max(
      MAX_SCANS_PER_SYNC,
      `Höchstens ${MAX_SCANS_PER_SYNC} Scans pro Abgleich. Bitte sende den Rest danach.`,
    ),
});

export interface ScanResult {
  scanId: string;
  status: ScanStatus;
  /** With "already": the first check-in (ISO 8601) and the device that made it. */
  firstScannedAt?: string;
  firstDevice?: string;
}

export interface CheckinEventView {
  id: number;
  name: string;
  startsAt: string | null;
  venue: string | null;
  /** Valid tickets. */
  tickets: number;
  revoked: number;
  checkedIn: number;
}

/** One entry of the download list. Plain keys: 2,000 checked-in tickets gzip to about 35 KB. */
export interface DoorTicketView {
  id: string;
  seat: number;
  seats: number;
  tier: string | null;
  holder: string | null;
  status: 'valid' | 'revoked';
  checkedInAt?: string;
  checkedInDevice?: string;
}

export interface DoorTicketList {
  eventId: number;
  generatedAt: string;
  tickets: DoorTicketView[];
}
