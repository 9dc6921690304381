import { Injectable } from '@nestjs/common';

/**
 * rules "Waiting list": wakes this process's waiting-list pass when places may have come
 * free (an order released its reservation, an offer was declined, an entry confirmed), so
 * the next visitor in line hears of it within seconds instead of at the next periodic pass.
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
