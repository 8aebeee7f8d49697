/** The views of `org list` and `org view`. */
import type { Organization } from "../api/organizations.ts";
import type { DocView } from "../view/doc.ts";
import type { ListView } from "../view/list.ts";

/** The host of the organization's region (`us.sentry.io`), the URL as it is when it is not one. */
function regionName(url: string | undefined): string {
  if (!url) return "-";
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** `org list`: SLUG, NAME, REGION; a row's document is the organization as the service gave it. */
export const ORG_LIST_VIEW: ListView<Organization> = {
  name: "org list",
  id: "slug",
  document: (o) => o,
  columns: () => [
    { header: "slug", cell: (o) => o.slug },
    { header: "name", flex: true, cell: (o) => o.name },
    { header: "region", cell: (o) => regionName(o.links?.regionUrl) },
  ],
};

/** `org view`: the name and slug, then the organization's key facts; its document is the organization. */
export const ORG_VIEW: DocView<Organization> = {
  name: "org view",
  id: "slug",
  document: (o) => o,
  sections: (o) => [
    {
      block: {
        kind: "lines",
        lines: [
          `${o.name} (${o.slug})`,
          `ID:       ${o.id}`,
          `Status:   ${o.status?.id ?? "-"}`,
          `Created:  ${o.dateCreated ?? "-"}`,
          `Region:   ${o.links?.regionUrl ?? "-"}`,
          `URL:      ${o.links?.organizationUrl ?? "-"}`,
        ],
      },
    },
  ],
};
