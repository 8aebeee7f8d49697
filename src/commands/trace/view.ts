import { NotAvailableError } from "../../lib/errors.ts";

/** `tracker trace view`: arrives with its own issue; until then it fails clearly. */
export default async function (): Promise<void> {
  throw new NotAvailableError("`tracker trace view`");
}
