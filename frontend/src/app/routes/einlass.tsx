import { useEffect } from 'react';
import { usePageMeta } from '@/lib/page-meta';
import { DoorApp } from '@/features/checkin/door-app';
import { registerDoorWorker } from '@/features/checkin/offline';

// DESIGN "Tickets and the door": the door staff's check-in, never indexed.
export function Component() {
  usePageMeta({
    title: 'Einlass',
    description: 'Check-in am Einlass für das Team an der Tür.',
    noindex: true,
  });
  useEffect(() => {
    // Only this page installs the worker, with this page as its scope (offline at the door).
    void registerDoorWorker();
  }, []);
  return <DoorApp />;
}
