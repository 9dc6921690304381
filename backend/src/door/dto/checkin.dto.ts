import { z } from 'zod';
import type { ScanStatus } from '../door.port.js';

/**
 * rules "Tickets and the door": the door page's wire shapes. The sync body is fixed by
 * the rules (`{scans: [{scanId, token, scannedAt, device}]}`, or a typed short code with
 * its event instead of the token: `{scanId, code, eventId, scannedAt, device}`); the rest
 * is this module's.
 */

/** Scans per sync: a full evening's offline queue at a busy door in one request. */
export const MAX_SCANS_PER_SYNC = 500;

export const scanSchema = z
  .object({
    /** Made by the device (a UUID); the same id sent again is the same scan. */
    scanId: z.string().trim().min(1).max(100),
    /** The QR code's content. Anything longer than ours is answered "invalid", not refused. */
    token: z.string().max(2000).optional(),
    /**
     * A short ticket code typed at the door (any case, dashes, O for 0 …), with the event it
     * was typed for: codes are unique within an event only. One that names no ticket is
     * answered "invalid".
     */
    code: z.string().max(64).optional(),
    eventId: z.number().int().min(0).max(9_999_999_999).optional(),
    /** When the device scanned: ISO 8601 or epoch milliseconds. */
    scannedAt: z.union([z.number().int().min(0), z.iso.datetime({ offset: true })]),
    /** The device's name as the door staff set it ("Tür 1"); shown to the other devices. */
    device: z.string().trim().min(1).max(64),
  })
  .refine((s) => s.token !== undefined || (s.code !== undefined && s.eventId !== undefined), {
    message:
      'Jeder Scan braucht den Inhalt des QR-Codes (token) oder einen Ticket-Code mit seinem Event (code, eventId).',
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
  /** With "early": when check-in opens (ISO 8601). */
  opensAt?: string;
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
  /** The short ticket code as stored (`K7QM3XPA`). */
  code?: string;
  /** For the guest-list search, today's and upcoming events only: the order number … */
  orderNumber?: string;
  /** … and `guestEmailKey` of the buyer's address, never the address. */
  emailKey?: string;
  /** rules "Named tickets": the holder's company, with the name. */
  company?: string;
  /** Set once passed on: older tokens of the ticket are refused ("Weitergegeben"). */
  generation?: number;
  /** The codes the ticket had before it was passed on. */
  passedOnCodes?: string[];
}

export interface DoorTicketList {
  eventId: number;
  generatedAt: string;
  tickets: DoorTicketView[];
  /** Today's and upcoming other events' codes as keys (`ticketCodeKey`): "Anderes Event". */
  elsewhere: { eventId: number; codeKeys: string[] }[];
}
