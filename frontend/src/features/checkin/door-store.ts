import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { JWK } from 'jose';
import {
  doorCounts,
  type DoorCheckin,
  type DoorEventSummary,
  type DoorRestored,
  type DoorScan,
  type DoorScanResult,
  type DoorTicket,
  type DoorTicketList,
  firstCheckin,
  guestIndex,
  type GuestIndex,
  parseGuestQuery,
  searchGuests,
  syncNotice,
  type SyncNoticeKind,
  ticketsByCode,
} from '@awhh/machines';

// Everything the door needs offline lives in IndexedDB on the device (rules "Tickets and
// the door"): the door session (never the code), the device name, the chosen event's ticket list and public key,
// this device's check-ins and the scans not yet sent. A reload without network finds it
// all again. The page reads a copy in memory, so a verdict needs no disk access.

const DB_NAME = 'awhh-door';
export const DEFAULT_DEVICE = 'Tür 1';
/** Sync log entries kept on the device. */
const LOG_LIMIT = 50;

export interface QueuedScan extends DoorScan {
  eventId: number;
  ticketId: string;
}

/** A guest-list hit as the door shows it: the ticket and its first check-in, if any. */
export interface GuestHit {
  ticket: DoorTicket;
  checkin: { at: string; device: string | null } | null;
}

/** What identifies a check-in to the server: the scanned token, or the typed short code. */
export type CheckInProof = { token: string } | { code: string };

export interface SyncLogEntry {
  id?: number;
  at: string;
  eventId: number;
  kind: SyncNoticeKind | 'sent';
  text: string;
}

interface DoorDb extends DBSchema {
  settings: {
    key: string;
    value: unknown;
  };
  lists: { key: number; value: DoorTicketList };
  checkins: { key: [number, string]; value: DoorCheckin & { eventId: number } };
  outbox: { key: string; value: QueuedScan };
  log: { key: number; value: SyncLogEntry };
}

export interface DoorSnapshot {
  device: string;
  eventId: number | null;
  event: DoorEventSummary | null;
  generatedAt: string | null;
  checkedIn: number;
  total: number;
  pending: number;
  log: SyncLogEntry[];
  lastSync: string | null;
}

function openDoorDb(): Promise<IDBPDatabase<DoorDb>> {
  return openDB<DoorDb>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('settings');
      db.createObjectStore('lists', { keyPath: 'eventId' });
      db.createObjectStore('checkins', { keyPath: ['eventId', 'ticketId'] });
      db.createObjectStore('outbox', { keyPath: 'scanId' });
      db.createObjectStore('log', { keyPath: 'id', autoIncrement: true });
    },
  });
}

export class DoorStore {
  private db: Promise<IDBPDatabase<DoorDb>> | null = null;
  private listeners = new Set<() => void>();
  private device = DEFAULT_DEVICE;
  private eventId: number | null = null;
  private events: DoorEventSummary[] = [];
  private list: DoorTicketList | null = null;
  private publicKey: JWK | null = null;
  private tickets = new Map<string, DoorTicket>();
  /** The list's tickets by short code, other events' code keys, and the guest-list index. */
  private byCode = new Map<string, DoorTicket>();
  private elsewhere = new Map<string, number>();
  private guests: GuestIndex = guestIndex(0, []);
  private checkins = new Map<string, DoorCheckin>();
  private pending = 0;
  private log: SyncLogEntry[] = [];
  private lastSync: string | null = null;
  private snapshot: DoorSnapshot = this.buildSnapshot();

  private database() {
    this.db ??= openDoorDb();
    return this.db;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  private buildSnapshot(): DoorSnapshot {
    const counts = doorCounts(this.tickets.values(), this.checkins);
    return {
      device: this.device,
      eventId: this.eventId,
      event: this.events.find((e) => e.id === this.eventId) ?? null,
      generatedAt: this.list?.generatedAt ?? null,
      ...counts,
      pending: this.pending,
      log: this.log,
      lastSync: this.lastSync,
    };
  }

  private changed() {
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
  }

  /** What the door machine starts from after a reload. */
  async restore(): Promise<DoorRestored> {
    const db = await this.database();
    const [code, device, eventId, events] = await Promise.all([
      db.get('settings', 'code') as Promise<string | undefined>,
      db.get('settings', 'device') as Promise<string | undefined>,
      db.get('settings', 'eventId') as Promise<number | undefined>,
      db.get('settings', 'events') as Promise<DoorEventSummary[] | undefined>,
    ]);
    this.device = device ?? DEFAULT_DEVICE;
    this.events = events ?? [];
    let hasList = false;
    if (eventId !== undefined) hasList = await this.load(eventId);
    this.changed();
    return {
      code: code ?? null,
      eventId: eventId ?? null,
      events: this.events,
      hasList,
    };
  }

  /** Loads an event's list, key, check-ins and queue from the device; false if none. */
  private async load(eventId: number): Promise<boolean> {
    const db = await this.database();
    const [list, key, checkins, outbox, log] = await Promise.all([
      db.get('lists', eventId),
      db.get('settings', `publicKey`) as Promise<JWK | undefined>,
      db.getAll('checkins', IDBKeyRange.bound([eventId, ''], [eventId, '\uffff'])),
      db.getAll('outbox'),
      db.getAll('log'),
    ]);
    this.eventId = eventId;
    this.list = list ?? null;
    this.publicKey = key ?? null;
    this.setList(list ?? null);
    this.checkins = new Map(checkins.map((c) => [c.ticketId, c]));
    this.pending = outbox.filter((s) => s.eventId === eventId).length;
    this.log = log
      .filter((entry) => entry.eventId === eventId)
      .slice(-LOG_LIMIT)
      .reverse();
    return list !== undefined && key !== undefined;
  }

  async saveCode(code: string, events: DoorEventSummary[]): Promise<void> {
    const db = await this.database();
    await db.put('settings', code, 'code');
    await db.put('settings', events, 'events');
    this.events = events;
    this.changed();
  }

  /** Locks the door on this device. Queued scans stay: they sync after the next unlock. */
  async forgetCode(): Promise<void> {
    const db = await this.database();
    await db.delete('settings', 'code');
    await db.delete('settings', 'eventId');
    this.eventId = null;
    this.changed();
  }

  async setDevice(name: string): Promise<void> {
    const device = name.trim().slice(0, 40) || DEFAULT_DEVICE;
    this.device = device;
    this.changed();
    await (await this.database()).put('settings', device, 'device');
  }

  /** After a download: the list and key are on the device and the event is the door's. */
  async saveEvent(list: DoorTicketList, publicKey: JWK): Promise<void> {
    const db = await this.database();
    await db.put('lists', list);
    await db.put('settings', publicKey, 'publicKey');
    await db.put('settings', list.eventId, 'eventId');
    await this.load(list.eventId);
    this.changed();
  }

  /** True when this event's list is on the device (a download may fail without network). */
  async hasList(eventId: number): Promise<boolean> {
    const db = await this.database();
    const [list, key] = await Promise.all([
      db.get('lists', eventId),
      db.get('settings', 'publicKey'),
    ]);
    if (list && key) {
      await db.put('settings', eventId, 'eventId');
      await this.load(eventId);
      this.changed();
      return true;
    }
    return false;
  }

  /** A fresh list from the server replaces the old one; local check-ins stay. */
  async replaceList(list: DoorTicketList): Promise<void> {
    if (list.eventId !== this.eventId) return;
    await (await this.database()).put('lists', list);
    this.setList(list);
    this.lastSync = new Date().toISOString();
    this.changed();
  }

  /** The list and what is looked up in it: by id, by short code, by name (rules "Tickets and the door"). */
  private setList(list: DoorTicketList | null) {
    this.list = list;
    const tickets = list?.tickets ?? [];
    this.tickets = new Map(tickets.map((t) => [t.id, t]));
    // rules "Named tickets": with the codes of tickets passed on, answered "Weitergegeben".
    this.byCode = ticketsByCode(tickets);
    this.elsewhere = new Map(
      (list?.elsewhere ?? []).flatMap((e) => e.codeKeys.map((key) => [key, e.eventId] as const)),
    );
    this.guests = guestIndex(list?.eventId ?? 0, tickets);
  }

  verifyInput() {
    return {
      publicKey: this.publicKey,
      tickets: this.tickets,
      byCode: this.byCode,
      elsewhere: this.elsewhere,
      checkins: this.checkins,
      events: this.events,
    };
  }

  /** The guest list searched offline: name, e-mail address or order number. */
  searchGuests(input: string): GuestHit[] | null {
    const query = parseGuestQuery(this.guests.eventId, input);
    if (query.kind === 'short') return null;
    return searchGuests(this.guests, query).map((ticket) => ({
      ticket,
      checkin: firstCheckin(ticket, this.checkins.get(ticket.id)),
    }));
  }

  get currentDevice() {
    return this.device;
  }

  /**
   * A ticket let in here: counted at once, and queued for the server with what named it
   * (a typed code goes with its event: codes are unique within an event only).
   */
  async checkIn(ticketId: string, proof: CheckInProof): Promise<QueuedScan | null> {
    const eventId = this.eventId;
    if (eventId === null) return null;
    const scan: QueuedScan = {
      scanId: crypto.randomUUID(),
      ...proof,
      scannedAt: new Date().toISOString(),
      device: this.device,
      eventId,
      ticketId,
    };
    const checkin = { ticketId, at: scan.scannedAt, device: this.device, eventId };
    this.checkins.set(ticketId, checkin);
    this.pending += 1;
    this.changed();
    const db = await this.database();
    const tx = db.transaction(['checkins', 'outbox'], 'readwrite');
    await Promise.all([
      tx.objectStore('checkins').put(checkin),
      tx.objectStore('outbox').put(scan),
      tx.done,
    ]);
    return scan;
  }

  /**
   * rules "Tickets and the door": the server's answer to one scan sent at once. The scan
   * leaves the queue; a first check-in the server knows from another door is kept as it
   * does for a sync, and a check-in it refused is taken back on this device.
   */
  async confirmed(scan: QueuedScan, result: DoorScanResult): Promise<void> {
    if (result.status === 'revoked' || result.status === 'invalid' || result.status === 'early') {
      this.checkins.delete(scan.ticketId);
      const db = await this.database();
      await db.delete('checkins', [scan.eventId, scan.ticketId]);
      this.changed();
    }
    // A scan the server took at once is no news for the sync log; a surprise is.
    await this.applyResults([scan], [result], { logSent: false });
  }

  async queued(): Promise<QueuedScan[]> {
    return (await this.database()).getAll('outbox');
  }

  /** The server's answers: sent scans leave the queue, surprises go to the sync log. */
  async applyResults(
    sent: QueuedScan[],
    results: DoorScanResult[],
    options: { logSent?: boolean } = {},
  ): Promise<void> {
    const db = await this.database();
    const byId = new Map(sent.map((s) => [s.scanId, s]));
    const now = new Date().toISOString();
    const entries: SyncLogEntry[] = [];
    let ok = 0;
    for (const result of results) {
      const scan = byId.get(result.scanId);
      if (!scan) continue;
      await db.delete('outbox', scan.scanId);
      const notice = syncNotice(result, this.tickets.get(scan.ticketId));
      if (!notice) {
        ok += 1;
        continue;
      }
      entries.push({ at: now, eventId: scan.eventId, kind: notice.kind, text: notice.text });
      if (result.status === 'already' && result.firstScannedAt) {
        // The server's first check-in is the truth: the next scan shows that time and door.
        const first = {
          ticketId: scan.ticketId,
          eventId: scan.eventId,
          at: result.firstScannedAt,
          device: result.firstDevice ?? null,
        };
        await db.put('checkins', first);
        if (scan.eventId === this.eventId) this.checkins.set(scan.ticketId, first);
      }
    }
    if (ok > 0 && options.logSent !== false) {
      entries.push({
        at: now,
        eventId: sent[0]!.eventId,
        kind: 'sent',
        text: ok === 1 ? '1 Check-in übertragen.' : `${ok} Check-ins übertragen.`,
      });
    }
    for (const entry of entries) await db.add('log', entry);
    const outbox = await db.getAll('outbox');
    this.pending = outbox.filter((s) => s.eventId === this.eventId).length;
    this.log = [...entries.filter((e) => e.eventId === this.eventId).reverse(), ...this.log].slice(
      0,
      LOG_LIMIT,
    );
    this.lastSync = now;
    this.changed();
  }
}

export const doorStore = new DoorStore();
