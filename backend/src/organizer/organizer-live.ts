import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { OrganizerEvent } from '@awhh/machines';
import { OrganizerDashboard } from './organizer-dashboard.js';
import { OrganizerOptions } from './organizer.options.js';

/** Receives an event's figures whenever they change; `end` when the stream must close. */
export interface LiveListener {
  send(event: OrganizerEvent): void;
  end(): void;
}

interface Watch {
  listeners: Set<LiveListener>;
  /** The last figures sent, without their reading time; null before the first reading. */
  last: string | null;
  lastEvent: OrganizerEvent | null;
  timer: NodeJS.Timeout | null;
  reading: boolean;
}

/**
 * rules "The organizer": the live dashboard. One watch per event that is open on some
 * dashboard of this process reads the event's figures every `livePollMs` and tells its
 * listeners when they changed (a sale, a refund, a check-in, the waiting list), so a
 * change made by any process shows within seconds. A watch stops with its last listener.
 */
@Injectable()
export class OrganizerLive implements OnModuleDestroy {
  private readonly logger = new Logger('Organizer');
  private readonly watches = new Map<number, Watch>();
  private streams = 0;

  constructor(
    @Inject(OrganizerDashboard) private readonly dashboard: OrganizerDashboard,
    @Inject(OrganizerOptions) private readonly options: OrganizerOptions,
  ) {}

  /** Whether another stream may open now. */
  get full(): boolean {
    return this.streams >= this.options.maxLiveStreams;
  }

  /** Starts telling `listener` about the event; returns what stops it. */
  subscribe(eventId: number, listener: LiveListener): () => void {
    let watch = this.watches.get(eventId);
    if (!watch) {
      watch = { listeners: new Set(), last: null, lastEvent: null, timer: null, reading: false };
      this.watches.set(eventId, watch);
      const started = watch;
      started.timer = setInterval(() => void this.read(eventId, started), this.options.livePollMs);
      started.timer.unref();
    }
    watch.listeners.add(listener);
    this.streams += 1;
    if (watch.lastEvent) listener.send(watch.lastEvent);
    else void this.read(eventId, watch);
    const current = watch;
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      this.streams -= 1;
      current.listeners.delete(listener);
      if (current.listeners.size === 0) this.stop(eventId, current);
    };
  }

  /** Ends every stream, so that shutting down does not wait for open dashboards. */
  onModuleDestroy(): void {
    for (const [eventId, watch] of [...this.watches]) {
      for (const listener of [...watch.listeners]) listener.end();
      this.stop(eventId, watch);
    }
  }

  private stop(eventId: number, watch: Watch): void {
    if (watch.timer) clearInterval(watch.timer);
    watch.timer = null;
    if (this.watches.get(eventId) === watch) this.watches.delete(eventId);
  }

  private async read(eventId: number, watch: Watch): Promise<void> {
    if (watch.reading || watch.listeners.size === 0) return;
    watch.reading = true;
    try {
      const event = await this.dashboard.event(eventId);
      if (!event) return;
      const { updatedAt: _readAt, ...figures } = event;
      const text = JSON.stringify(figures);
      if (text === watch.last) return;
      watch.last = text;
      watch.lastEvent = event;
      for (const listener of watch.listeners) listener.send(event);
    } catch (err) {
      // The store briefly away: the next tick tries again; the streams stay open.
      this.logger.warn({ msg: 'live dashboard reading failed', eventId, error: String(err) });
    } finally {
      watch.reading = false;
    }
  }
}
