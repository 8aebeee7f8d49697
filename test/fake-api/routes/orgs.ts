/** Regions, organizations, projects and project keys (API.md sections 1 and 3). */
import { detail, json, notFound, paginate } from "../http.ts";
import { dsnFor } from "../seed.ts";
import type { FakeRequest, FakeState, Route, SeedOrg, SeedProject } from "../types.ts";

/** Finds an org by slug or numeric id (case-sensitive, like Sentry). */
export function findOrg(state: FakeState, ref: string): SeedOrg | undefined {
  return state.orgs.find((o) => o.slug === ref || o.id === ref);
}

/** Finds a project of an org by slug or numeric id. */
export function findProject(state: FakeState, org: SeedOrg, ref: string): SeedProject | undefined {
  return state.projects.find((p) => p.org === org.slug && (p.slug === ref || p.id === ref));
}

/** True when the request's token may see the org (org-bound tokens see only their org). */
export function canSeeOrg(req: FakeRequest, org: SeedOrg): boolean {
  return !req.token?.org || req.token.org === org.slug;
}

/** The organization summary object. */
export function orgSummary(state: FakeState, o: SeedOrg) {
  return {
    id: o.id,
    slug: o.slug,
    name: o.name,
    dateCreated: o.dateCreated,
    status: { id: "active", name: "active" },
    require2FA: false,
    features: ["advanced-search"],
    avatar: { avatarType: "letter_avatar", avatarUuid: null },
    hasAuthProvider: false,
    links: { organizationUrl: `https://${o.slug}.sentry.io`, regionUrl: state.urls[o.region] },
  };
}

/** The project summary object. */
export function projectSummary(p: SeedProject) {
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    platform: p.platform,
    dateCreated: p.dateCreated,
    firstEvent: p.dateCreated,
    isBookmarked: false,
    isMember: p.isMember,
    hasAccess: true,
    features: ["releases"],
    teams: [{ id: "200001", slug: "team", name: "Team" }],
  };
}

function projectDetail(state: FakeState, p: SeedProject) {
  const o = findOrg(state, p.org) as SeedOrg;
  return { ...projectSummary(p), organization: orgSummary(state, o) };
}

/** Resolves `:org` and `:project` params, answering 404 like Sentry when missing or not visible. */
export function orgProjectOr404(req: FakeRequest): { org: SeedOrg; project: SeedProject } | Response {
  const org = findOrg(req.state, req.params.org ?? "");
  if (!org || !canSeeOrg(req, org)) return notFound();
  const project = findProject(req.state, org, req.params.project ?? "");
  if (!project) return notFound();
  return { org, project };
}

/** Routes of this module. */
export const orgRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api/0/users/me/regions/",
    hosts: "control",
    scopes: ["org:read"],
    handler: (req) => {
      if (req.token?.kind === "org" || req.token?.org)
        return detail(401, "This token access is limited to organization endpoints.");
      const names = [...new Set(req.state.orgs.map((o) => o.region))].sort();
      return json({ regions: names.map((n) => ({ name: n, url: req.state.urls[n] })) });
    },
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/",
    hosts: "any",
    scopes: ["org:read"],
    handler: (req) => {
      const orgs = req.state.orgs.filter(
        (o) => (req.host === "control" || o.region === req.host) && canSeeOrg(req, o),
      );
      return paginate(
        req,
        orgs.map((o) => orgSummary(req.state, o)),
        { sizeParam: "per_page", defaultSize: 100 },
      );
    },
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/",
    hosts: "region",
    scopes: ["org:read"],
    handler: (req) => {
      const org = findOrg(req.state, req.params.org ?? "");
      if (!org || !canSeeOrg(req, org)) return notFound();
      const projects = req.state.projects.filter((p) => p.org === org.slug).map(projectSummary);
      return json({
        ...orgSummary(req.state, org),
        access: req.token?.scopes ?? [],
        role: "member",
        orgRole: "member",
        projects,
        hideAiFeatures: !!org.hideAiFeatures,
      });
    },
  },
  {
    method: "GET",
    pattern: "/api/0/organizations/:org/projects/",
    hosts: "region",
    scopes: ["org:read", "project:read"],
    handler: (req) => {
      const org = findOrg(req.state, req.params.org ?? "");
      if (!org || !canSeeOrg(req, org)) return notFound();
      const projects = req.state.projects.filter((p) => p.org === org.slug).map(projectSummary);
      return paginate(req, projects, { sizeParam: "per_page", defaultSize: 100 });
    },
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/",
    hosts: "region",
    scopes: ["project:read", "org:read"],
    handler: (req) => {
      const r = orgProjectOr404(req);
      if (r instanceof Response) return r;
      return json(projectDetail(req.state, r.project));
    },
  },
  {
    method: "GET",
    pattern: "/api/0/projects/:org/:project/keys/",
    hosts: "region",
    scopes: ["project:read"],
    handler: (req) => {
      const r = orgProjectOr404(req);
      if (r instanceof Response) return r;
      const p = r.project;
      const dsn = dsnFor(req.state, p);
      const key = {
        id: `key-${p.id}`,
        name: "Default",
        label: "Default",
        projectId: Number(p.id),
        isActive: true,
        public: p.publicKey,
        secret: "0123456789abcdef0123456789abcdef",
        dsn: {
          public: dsn,
          secret: dsn.replace("@", ":0123456789abcdef0123456789abcdef@"),
          csp: `${dsn}/csp`,
          security: `${dsn}/security`,
        },
        rateLimit: null,
        browserSdkVersion: "8.x",
        dateCreated: p.dateCreated,
      };
      return paginate(req, [key], { sizeParam: "per_page", defaultSize: 100 });
    },
  },
  {
    method: "GET",
    pattern: "/api/0/projects/",
    hosts: "any",
    scopes: ["project:read", "org:read"],
    handler: (req) => {
      const q = req.query.get("query") ?? "";
      const m = /^(dsn|id|slug|name|platform):(\S+)$/.exec(q.trim());
      let items = req.state.projects.filter((p) => {
        const o = findOrg(req.state, p.org) as SeedOrg;
        return (req.host === "control" || o.region === req.host) && canSeeOrg(req, o);
      });
      if (m) {
        const [, key, value] = m;
        items = items.filter((p) =>
          key === "dsn"
            ? p.publicKey === value
            : key === "id"
              ? p.id === value
              : key === "slug"
                ? p.slug === value
                : key === "name"
                  ? p.name === value
                  : p.platform === value,
        );
      }
      return paginate(
        req,
        items.map((p) => projectDetail(req.state, p)),
        { sizeParam: "per_page", defaultSize: 100 },
      );
    },
  },
];
