/**
 * The local database schema, declared once. It drives creation, migration and repair:
 * a missing table is created, a missing column is added.
 */

/** Bumped whenever a table or column is added below. */
export const SCHEMA_VERSION = 7;

/** One column: name and SQL type/constraint text usable in ALTER TABLE ADD COLUMN. */
export interface ColumnDef {
  name: string;
  type: string;
}

/** One table with its columns and table-level constraints. */
export interface TableDef {
  name: string;
  columns: readonly ColumnDef[];
  constraints?: readonly string[];
}

const col = (name: string, type: string): ColumnDef => ({ name, type });

/** Every table of the local state. */
export const TABLES: readonly TableDef[] = [
  { name: "meta", columns: [col("key", "TEXT PRIMARY KEY"), col("value", "TEXT")] },
  {
    name: "auth",
    columns: [
      col("id", "INTEGER PRIMARY KEY CHECK (id = 1)"),
      col("token", "TEXT NOT NULL"),
      col("refresh_token", "TEXT"),
      col("expires_at", "INTEGER"),
      col("issued_at", "INTEGER"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
      col("kind", "TEXT"),
      col("base_url", "TEXT"),
      col("user_json", "TEXT"),
      // The OAuth client a device-flow login was issued to (a refresh token is bound to it).
      col("client_id", "TEXT"),
    ],
  },
  {
    // Logins, one per service URL, several side by side (`auth` above is the single login of
    // earlier versions; its row is moved here by LEGACY_MOVES).
    name: "logins",
    columns: [
      col("base_url", "TEXT NOT NULL PRIMARY KEY"),
      col("token", "TEXT NOT NULL"),
      col("refresh_token", "TEXT"),
      col("expires_at", "INTEGER"),
      col("issued_at", "INTEGER"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
      col("kind", "TEXT"),
      col("user_json", "TEXT"),
      col("client_id", "TEXT"),
      // The scopes a device-flow login was granted (space-separated), for the 403 hint.
      col("scopes", "TEXT"),
    ],
  },
  {
    name: "defaults",
    columns: [
      col("id", "INTEGER PRIMARY KEY CHECK (id = 1)"),
      col("org", "TEXT"),
      col("project", "TEXT"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
      // JSON array of the default environments (`defaults set --environment`), or NULL.
      col("environments", "TEXT"),
    ],
  },
  {
    // Defaults of one project tree (`defaults set --here`): used only at or below `root`.
    name: "project_defaults",
    columns: [
      col("root", "TEXT NOT NULL PRIMARY KEY"),
      col("org", "TEXT NOT NULL"),
      col("project", "TEXT"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
  },
  {
    name: "org_regions",
    columns: [
      col("base_url", "TEXT NOT NULL"),
      col("slug", "TEXT NOT NULL"),
      col("org_id", "TEXT"),
      col("name", "TEXT"),
      col("region_url", "TEXT NOT NULL"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
    constraints: ["PRIMARY KEY (base_url, slug)"],
  },
  {
    name: "project_cache",
    columns: [
      col("base_url", "TEXT NOT NULL"),
      col("org", "TEXT NOT NULL"),
      col("project", "TEXT NOT NULL"),
      col("project_id", "TEXT"),
      col("name", "TEXT"),
      col("platform", "TEXT"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
    constraints: ["PRIMARY KEY (base_url, org, project)"],
  },
  {
    // Query fields and tags per organization and dataset, as `attribute list` last saw them
    // (completion of `query -F` and `--fields` reads them without a request).
    name: "attribute_keys",
    columns: [
      col("base_url", "TEXT NOT NULL"),
      col("org", "TEXT NOT NULL"),
      col("dataset", "TEXT NOT NULL"),
      col("keys_json", "TEXT NOT NULL"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
    constraints: ["PRIMARY KEY (base_url, org, dataset)"],
  },
  {
    name: "issue_refs",
    columns: [
      col("base_url", "TEXT NOT NULL"),
      col("ref", "TEXT NOT NULL"),
      col("org", "TEXT NOT NULL"),
      col("issue_id", "TEXT NOT NULL"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
    constraints: ["PRIMARY KEY (base_url, ref)"],
  },
  {
    name: "dsn_cache",
    columns: [
      col("dsn_key", "TEXT PRIMARY KEY"),
      col("org", "TEXT"),
      col("project", "TEXT"),
      col("org_id", "TEXT"),
      col("project_id", "TEXT"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
  },
  {
    name: "dsn_scan_cache",
    columns: [
      col("root", "TEXT PRIMARY KEY"),
      col("result_json", "TEXT NOT NULL"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
  },
  {
    name: "aliases",
    columns: [
      col("alias", "TEXT PRIMARY KEY"),
      col("org", "TEXT NOT NULL"),
      col("project", "TEXT NOT NULL"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
  },
  {
    // Every alias ever shown for a listing's target (an org, or a set of detected projects): an
    // alias keeps meaning its project for that target; `aliases` holds the current target's set.
    name: "target_aliases",
    columns: [
      col("base_url", "TEXT NOT NULL"),
      col("target", "TEXT NOT NULL"),
      col("alias", "TEXT NOT NULL"),
      col("org", "TEXT NOT NULL"),
      col("project", "TEXT NOT NULL"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
    constraints: ["PRIMARY KEY (base_url, target, alias)"],
  },
  {
    name: "cursors",
    columns: [
      col("key", "TEXT PRIMARY KEY"),
      col("cursor", "TEXT"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
  },
  {
    name: "recent_traces",
    columns: [
      col("org", "TEXT NOT NULL"),
      col("trace_id", "TEXT NOT NULL"),
      col("project", "TEXT"),
      col("listed_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
    constraints: ["PRIMARY KEY (org, trace_id)"],
  },
  {
    name: "completion_values",
    columns: [
      col("base_url", "TEXT NOT NULL"),
      col("kind", "TEXT NOT NULL"),
      col("org", "TEXT NOT NULL"),
      col("value", "TEXT NOT NULL"),
      col("seen_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
    constraints: ["PRIMARY KEY (base_url, kind, org, value)"],
  },
  {
    name: "install_info",
    columns: [
      col("id", "INTEGER PRIMARY KEY CHECK (id = 1)"),
      col("method", "TEXT"),
      col("path", "TEXT"),
      col("version", "TEXT"),
      col("updated_at", "INTEGER NOT NULL DEFAULT 0"),
    ],
  },
];

/** The CREATE TABLE statement of a table. */
export function createTableSql(t: TableDef): string {
  const parts = [...t.columns.map((c) => `${c.name} ${c.type}`), ...(t.constraints ?? [])];
  return `CREATE TABLE IF NOT EXISTS ${t.name} (${parts.join(", ")})`;
}

/** Column type text safe for ALTER TABLE ADD COLUMN (no PRIMARY KEY; NOT NULL needs a default). */
export function addColumnType(c: ColumnDef): string {
  let t = c.type.replace(/PRIMARY KEY/i, "").replace(/CHECK \(.*\)/i, "");
  if (/NOT NULL/i.test(t) && !/DEFAULT/i.test(t)) t = t.replace(/NOT NULL/i, "");
  return t.trim();
}

/**
 * Data moves run by every schema repair, after the tables exist: the single login of earlier
 * versions becomes the login of its service URL (one already stored for that URL wins). A legacy
 * login whose URL is unknown stays where it is: it is never used, only replaced or removed.
 */
export const LEGACY_MOVES: readonly string[] = [
  "INSERT OR IGNORE INTO logins (token, refresh_token, expires_at, issued_at, updated_at, kind, base_url, user_json, client_id) SELECT token, refresh_token, expires_at, issued_at, updated_at, kind, base_url, user_json, client_id FROM auth WHERE base_url IS NOT NULL AND base_url <> ''",
  "DELETE FROM auth WHERE base_url IS NOT NULL AND base_url <> ''",
];
