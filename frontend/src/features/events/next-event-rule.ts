// rules §4 "Next event": the shared rule, in a chunk of its own (see next-event-link.ts).
export { nextEventLink } from '@awhh/machines';
