import { Module } from '@nestjs/common';
import { storeRepository, StoreModule } from '../store/store.module.js';
import { ContactController } from './contact.controller.js';
import { ContactRepository } from './contact.port.js';
import { KyselyContactRepository } from './contact.repository.js';
import { ContactService } from './contact.service.js';

/** The contact form (POST /api/contact): messages kept in the store (docs/privacy.md). */
@Module({
  imports: [StoreModule],
  controllers: [ContactController],
  providers: [
    storeRepository(ContactRepository, (db) => new KyselyContactRepository(db)),
    ContactService,
  ],
})
export class ContactModule {}
