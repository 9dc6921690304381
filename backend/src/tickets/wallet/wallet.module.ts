import { Module } from '@nestjs/common';
import { CatalogModule } from '../../catalog/catalog.module.js';
import { TicketService } from '../ticket.service.js';
import { TicketsModule } from '../tickets.module.js';
import { WalletController } from './wallet.controller.js';
import { WalletService } from './wallet.service.js';

/**
 * Wallet passes (rules "Wallet passes") beside the tickets: the tickets' own service reads a
 * token here as for the page and the PDF; the catalog gives the venue's coordinates.
 */
@Module({
  imports: [TicketsModule, CatalogModule],
  controllers: [WalletController],
  providers: [TicketService, WalletService],
})
export class WalletModule {}
