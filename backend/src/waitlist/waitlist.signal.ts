import { Injectable } from '@nestjs/common';

/**
 * rules "Waiting list": wakes this process's waiting-list pass when an entry is confirmed, so
 * it hears of places within seconds instead of at the next periodic pass. Places that come
 * free wake the pass through the `places.released` event (`holds/holds.ts`).
 */
@Injectable()
export class WaitlistSignal {
  private listener: (() => void) | null = null;

  listen(listener: () => void): void {
    this.listener = listener;
  }

  wake(): void {
    this.listener?.();
  }
}
