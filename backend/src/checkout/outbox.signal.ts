import { Injectable } from '@nestjs/common';

/**
 * Wakes the outbox worker when a transaction has enqueued a job, so a paid order goes to
 * the catalog now rather than at the next poll. The worker listens; the order service
 * signals (and needs no worker of its own).
 */
@Injectable()
export class OutboxSignal {
  private listener: (() => void) | null = null;

  listen(listener: () => void): void {
    this.listener = listener;
  }

  wake(): void {
    this.listener?.();
  }
}
