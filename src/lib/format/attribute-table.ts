/** The `attribute list` view. */
import type { Attribute } from "../api/attributes.ts";
import type { ListView } from "../view/list.ts";

/** `attribute list`: each attribute's key (what `query -F` takes), its type and where it comes from. */
export const ATTRIBUTE_LIST_VIEW: ListView<Attribute> = {
  name: "attribute list",
  id: "key",
  document: (a) => a,
  columns: () => [
    { header: "key", flex: true, cell: (a) => a.key },
    { header: "type", cell: (a) => a.type },
    { header: "source", cell: (a) => a.source },
  ],
};
