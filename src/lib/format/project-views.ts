/** The views of `project list` and `project view`. */
import type { Project } from "../api/projects.ts";
import type { DocView } from "../view/doc.ts";
import type { ListView } from "../view/list.ts";

/** `project list`: SLUG, NAME, PLATFORM; a row's document is the project as the service gave it. */
export const PROJECT_LIST_VIEW: ListView<Project> = {
  name: "project list",
  id: "slug",
  document: (p) => p,
  columns: () => [
    { header: "slug", cell: (p) => p.slug },
    { header: "name", flex: true, cell: (p) => p.name },
    { header: "platform", cell: (p) => p.platform ?? "-" },
  ],
};

/** What `project view` shows: the project, its public DSN (null when unreadable) and its organization. */
export interface ProjectShown {
  project: Project;
  dsn: string | null;
  org: string;
}

/** `project view`: the name and `org/slug`, then the project's key facts and its DSN. */
export const PROJECT_VIEW: DocView<ProjectShown> = {
  name: "project view",
  id: "slug",
  document: (d) => ({ ...d.project, dsn: d.dsn }),
  sections: ({ project, dsn, org }) => [
    {
      block: {
        kind: "lines",
        lines: [
          `${project.name} (${org}/${project.slug})`,
          `ID:        ${project.id}`,
          `Platform:  ${project.platform ?? "-"}`,
          `Created:   ${project.dateCreated ?? "-"}`,
          `DSN:       ${dsn ?? "-"}`,
        ],
      },
    },
  ],
};
