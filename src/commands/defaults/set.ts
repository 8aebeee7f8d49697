import { NotAvailableError } from "../../lib/errors.ts";

/** `tracker defaults set`: arrives with its own issue; until then it fails clearly. */
export default async function (): Promise<void> {
  throw new NotAvailableError("`tracker defaults set`");
}
