import { Injectable } from '@nestjs/common';

/**
 * Wakes this process's job runner once a transaction has committed a job, so a paid order
 * goes to the catalog (and its mail to the buyer) now rather than at the next poll. The
 * runner listens; whoever enqueues signals after the commit (and needs no runner of its own).
 */
@Injectable()
export class JobSignal {
  private listener: (() => void) | null = null;

  listen(listener: () => void): void {
    this.listener = listener;
  }

  wake(): void {
    this.listener?.();
  }
}
