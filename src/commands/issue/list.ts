import { NotAvailableError } from "../../lib/errors.ts";

/** `tracker issue list`: arrives with its own issue; until then it fails clearly. */
export default async function (): Promise<void> {
  throw new NotAvailableError("`tracker issue list`");
}
