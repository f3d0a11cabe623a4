// Shared setup of the e-mail operation tests: the calls, typed, and the raw DELETE (a JSON body on DELETE).
import type { TestApp, TestUser } from './harness.js';

export const listEmails = (app: TestApp, auth: string | null) => app.client(auth ?? undefined).GET('/user/emails');
export const addEmails = (app: TestApp, auth: string | null, emails: string[]) =>
  app.client(auth ?? undefined).POST('/user/emails', { body: { emails } });
export const deleteEmails = (app: TestApp, auth: string | null, emails: string[]) =>
  app.client(auth ?? undefined).DELETE('/user/emails', { body: { emails } });

/** The addresses `user` has, lower-cased, sorted (read through the service, not the operation under test). */
export async function addressesOf(app: TestApp, user: TestUser): Promise<string[]> {
  const row = (await app.services.users.byId(user.id))!;
  return (await app.services.emails.ofUser(row)).map((e) => e.email.toLowerCase()).sort();
}
