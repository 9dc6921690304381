/** The contact form's store port; the Kysely adapter is `contact.repository.ts`. */
export abstract class ContactRepository {
  abstract add(
    message: { name: string; email: string; message: string },
    now: number,
  ): Promise<void>;
}
