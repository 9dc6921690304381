import { useEffect } from 'react';
import { staticMeta } from '@/lib/page-head';
import { DoorApp } from '@/features/checkin/door-app';
import { registerDoorWorker } from '@/features/checkin/offline';

// rules "Tickets and the door": the door staff's check-in, never indexed.
export const handle = staticMeta('Einlass', 'Check-in am Einlass für das Team an der Tür.', {
  noindex: true,
});

export function Component() {
  useEffect(() => {
    // Only this page installs the worker, with this page as its scope (offline at the door).
    void registerDoorWorker();
  }, []);
  return <DoorApp />;
}
