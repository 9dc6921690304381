import { Injectable } from '@nestjs/common';
import { DoorLockout } from '../door/door-lockout.js';

/**
 * Wrong organizer sign-ins per client address (rules "The organizer"): the door's lockout
 * and its rule (5 wrong within 10 minutes lock the address out for 15), with counters of its
 * own, so door staff mistyping their code never lock the organizer out, nor the other way
 * round.
 */
@Injectable()
export class OrganizerLockout extends DoorLockout {}
