import { NotAvailableError } from "../../lib/errors.ts";

/** `tracker cli setup`: arrives with its own issue; until then it fails clearly. */
export default async function (): Promise<void> {
  throw new NotAvailableError("`tracker cli setup`");
}
