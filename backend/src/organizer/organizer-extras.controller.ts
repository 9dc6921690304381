import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import type {
  OrganizerDoorCode,
  OrganizerDoorDevices,
  OrganizerMail,
  OrganizerMailPreview,
  OrganizerMails,
} from '@awhh/machines';
import type { FastifyReply } from 'fastify';
import { apiError } from '../common/api-error.js';
import { RateLimit } from '../common/rate-limit.js';
import { DoorCode, DoorCodeFixedError } from '../door/door-code.js';
import { DoorSessions } from '../door/door-session.js';
import { type BadgeLayout, OrganizerBadges } from './organizer-badges.js';
import { OrganizerMails as OrganizerMailService } from './organizer-mail.js';
import { EVENT_NOT_FOUND_MESSAGE } from './organizer.controller.js';
import { OrganizerGuard, type OrganizerRequest } from './organizer.guard.js';

export const DOOR_CODE_FIXED_MESSAGE =
  'Der Türcode ist über CHECKIN_CODE fest eingestellt und lässt sich hier nicht erneuern. Setze einen neuen CHECKIN_CODE und starte die Website neu.';

export const NO_DOOR_DEVICE_MESSAGE = 'Dieses Gerät ist am Einlass nicht (mehr) angemeldet.';
/** A door session's public id as the store makes them. */
const DOOR_DEVICE_ID = /^[A-Za-z0-9_-]{16}$/;

export const BAD_LAYOUT_MESSAGE =
  'Dieses Format gibt es nicht: layout=label (ein Schild pro Seite) oder ohne für A4.';

/** An event id as the routes take it: digits, never a 500 for anything else. */
export function eventIdOf(param: string): number {
  if (!/^\d{1,10}$/.test(param)) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
  return Number(param);
}

/**
 * rules "The organizer": what /veranstalter does for an evening beyond its figures: the
 * name badges, the mail to every holder and the door code. Behind the same guard as the
 * dashboard (the cookie, no caching, `Origin` on changes).
 */
@Controller('organizer')
@UseGuards(OrganizerGuard)
export class OrganizerExtrasController {
  constructor(
    @Inject(OrganizerBadges) private readonly badges: OrganizerBadges,
    @Inject(DoorCode) private readonly doorCode: DoorCode,
    @Inject(DoorSessions) private readonly doorSessions: DoorSessions,
    @Inject(OrganizerMailService) private readonly mails: OrganizerMailService,
  ) {}

  /** The mails sent to the event's holders, newest first, with how many went out so far. */
  @Get('events/:id/mails')
  mailList(@Param('id') idParam: string): Promise<OrganizerMails> {
    return this.mails.list(eventIdOf(idParam));
  }

  /** The mail as holders will get it, and to how many addresses it would go now. */
  @Post('events/:id/mails/preview')
  @HttpCode(200)
  @RateLimit({ name: 'organizer-mail-preview', limit: 60, windowMs: 60_000 })
  mailPreview(@Param('id') idParam: string, @Body() body: unknown): Promise<OrganizerMailPreview> {
    return this.mails.preview(eventIdOf(idParam), body);
  }

  /** "An mich testen": the mail to the organizer's own address first. */
  @Post('events/:id/mails/test')
  @HttpCode(202)
  @RateLimit({ name: 'organizer-mail-test', limit: 10, windowMs: 10 * 60_000 })
  mailTest(
    @Param('id') idParam: string,
    @Body() body: unknown,
    @Req() request: OrganizerRequest,
  ): Promise<{ to: string }> {
    return this.mails.test(eventIdOf(idParam), body, request.organizerSession?.email ?? null);
  }

  /** Sends to every valid holder through the job runner: 201, or 200 for a repeated sendId. */
  @Post('events/:id/mails')
  @RateLimit({ name: 'organizer-mail-send', limit: 10, windowMs: 60 * 60_000 })
  async mailSend(
    @Param('id') idParam: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ mail: OrganizerMail }> {
    const { mail, created } = await this.mails.send(eventIdOf(idParam), body);
    reply.status(created ? 201 : 200);
    return { mail };
  }

  /** The door code the staff type at /einlass, and whether it can be renewed here. */
  @Get('door-code')
  async currentDoorCode(): Promise<OrganizerDoorCode> {
    return this.doorCode.current();
  }

  /**
   * "Türcode erneuern": a new code; every device unlocked with the old one is locked out
   * at its next request and asks for the new code. Not while CHECKIN_CODE is set.
   */
  @Post('door-code')
  @HttpCode(200)
  @RateLimit({ name: 'organizer-door-code', limit: 10, windowMs: 60_000 })
  async renewDoorCode(): Promise<OrganizerDoorCode> {
    try {
      return { code: await this.doorCode.renew(), renewable: true };
    } catch (err) {
      if (err instanceof DoorCodeFixedError) throw apiError(409, DOOR_CODE_FIXED_MESSAGE);
      throw err;
    }
  }

  /** The devices signed in at /einlass with the current door code (rules "The organizer"). */
  @Get('door-devices')
  async doorDevices(): Promise<OrganizerDoorDevices> {
    return {
      devices: (await this.doorSessions.devices()).map((d) => ({
        id: d.id,
        device: d.device,
        createdAt: new Date(d.createdAt).toISOString(),
        lastSeenAt: new Date(d.lastSeenAt).toISOString(),
      })),
    };
  }

  /** "Abmelden": that device asks for the door code at its next request (a lost phone). */
  @Delete('door-devices/:id')
  @HttpCode(204)
  @RateLimit({ name: 'organizer-door-devices', limit: 30, windowMs: 60_000 })
  async endDoorDevice(@Param('id') id: string): Promise<void> {
    if (!DOOR_DEVICE_ID.test(id) || !(await this.doorSessions.end(id))) {
      throw apiError(404, NO_DOOR_DEVICE_MESSAGE);
    }
  }

  /** "Alle Geräte abmelden": every device asks for the door code again. */
  @Delete('door-devices')
  @HttpCode(200)
  @RateLimit({ name: 'organizer-door-devices', limit: 30, windowMs: 60_000 })
  async endDoorDevices(): Promise<{ ended: number }> {
    return { ended: await this.doorSessions.endAll() };
  }

  /** A4 sheets of 2 × 4 badges with crop marks, or `?layout=label`: one per page. */
  @Get('events/:id/badges.pdf')
  @RateLimit({ name: 'organizer-badges', limit: 20, windowMs: 60_000 })
  async badgesPdf(
    @Param('id') idParam: string,
    @Query('layout') layoutParam: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const id = eventIdOf(idParam);
    let layout: BadgeLayout;
    if (layoutParam === undefined || layoutParam === '' || layoutParam === 'a4') layout = 'a4';
    else if (layoutParam === 'label') layout = 'label';
    else throw apiError(400, BAD_LAYOUT_MESSAGE);
    const made = await this.badges.pdf(id, layout);
    if (!made) throw apiError(404, EVENT_NOT_FOUND_MESSAGE);
    const name = layout === 'label' ? 'etiketten' : 'a4';
    await reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="namensschilder-${id}-${name}.pdf"`)
      .header('x-badge-count', String(made.count))
      .send(made.pdf);
  }
}
