/**
 * The sentry-cli translation table: every sentry-cli (2.x/3.x) command form tracker accepts when
 * it runs as `sentry-cli`, the flags of each and what they become. `translate.ts` applies it and
 * `tracker help sentry-cli` prints it, so the help cannot drift from what is accepted.
 */
import {
  configStatusJq,
  DEPLOY_FLAGS,
  deployArgv,
  first,
  ignoreFileFlags,
  infoExitCode,
  ORG,
  release,
  setCommitsArgv,
  TARGET,
  UPLOAD_FLAGS,
  uploadArgv,
} from "./flag-sets.ts";
import { OTHER_FORMS } from "./forms-other.ts";
import type { CompatForm } from "./types.ts";

export { defaultArgv } from "./flag-sets.ts";

/** Every form, in the order `tracker help sentry-cli` lists them. */
export const FORMS: readonly CompatForm[] = [
  {
    words: "releases new <version>",
    tracker: "release create <version> [-p <project>]...",
    flags: [
      ORG,
      { names: ["--project", "-p"], value: true, to: "-p" },
      { names: ["--finalize"], to: "--finalize" },
      { names: ["--url"], value: true, to: "--url" },
      { names: ["--ref"], value: true, to: "--ref" },
    ],
  },
  {
    words: "releases finalize <version>",
    tracker: "release finalize <version>",
    flags: [
      ...TARGET,
      { names: ["--released"], value: true, to: "--released" },
      { names: ["--started"], value: true, note: "the service keeps no start date of a release" },
      {
        names: ["--url"],
        value: true,
        missing: "set a release's URL when creating it: tracker release create --url",
      },
    ],
  },
  {
    words: "releases set-commits <version>",
    tracker: "release set-commits <version>",
    flags: [
      ...TARGET,
      { names: ["--auto"], to: "--auto" },
      { names: ["--local"], to: "--local" },
      { names: ["--commit", "-c"], value: true, to: "--commit" },
      { names: ["--ignore-missing"], to: "--ignore-missing", note: "left out with --auto alone" },
      { names: ["--initial-depth"], value: true, to: "--initial-depth", note: "left out with --auto alone" },
      { names: ["--ignore-empty"], note: "an empty list is not an error" },
      { names: ["--clear"], to: "--clear" },
    ],
    build: (m) => setCommitsArgv(m.params.version as string, m),
  },
  {
    words: "releases deploys <version> new",
    tracker: "release deploy <version> -e <env>",
    flags: DEPLOY_FLAGS,
    build: (m) => deployArgv(m.params.version as string, m),
  },
  { words: "releases deploys <version> list", tracker: "release deploys <version>", flags: TARGET },
  { words: "releases delete <version>", tracker: "release delete <version>", flags: TARGET },
  {
    words: "releases list",
    tracker: "release list",
    flags: [
      ...TARGET,
      { names: ["--show-projects", "-P"], note: "projects are in --json" },
      { names: ["--raw", "-R"], note: "piped output is already one release per line" },
      { names: ["--delimiter", "-D"], value: true, note: "piped output is tab-separated" },
      { names: ["--no-abbrev"], note: "versions are never shortened" },
    ],
  },
  {
    words: "releases info <version>",
    tracker: "release view <version>",
    flags: [
      ...TARGET,
      { names: ["--show-projects", "-P"], note: "always shown" },
      { names: ["--show-commits", "-C"], note: "commit count and authors are shown" },
    ],
  },
  { words: "releases propose-version", tracker: "release propose-version" },
  {
    words: "releases files <version> upload-sourcemaps",
    tracker: "sourcemap upload <path>... --release <version>",
    flags: UPLOAD_FLAGS,
    rest: true,
    build: (m) => uploadArgv(m.positionals, m, ["--release", m.params.version as string]),
  },
  {
    words: "releases files <version>",
    tracker: "sourcemap upload <path>... --release <version>",
    missing: "release files are artifact bundles now: tracker sourcemap upload <path>... --release <version>",
  },
  {
    words: "deploys new",
    tracker: "release deploy <version> -e <env>",
    flags: [{ names: ["--release", "-r"], value: true, read: "<version>" }, ...DEPLOY_FLAGS],
    build: (m) => deployArgv(release(m, "deploys new"), m),
  },
  {
    words: "deploys list",
    tracker: "release deploys <version>",
    flags: [{ names: ["--release", "-r"], value: true, read: "<version>" }, ...TARGET],
    build: (m) => ["release", "deploys", release(m, "deploys list"), ...m.flags],
  },
  {
    words: "sourcemaps inject",
    tracker: "sourcemap inject <path>...",
    rest: true,
    flags: [
      ...TARGET,
      { names: ["--dry-run"], to: "--dry-run" },
      { names: ["--ext", "-x"], value: true, note: "JavaScript files that have a source map are injected" },
      { names: ["--ignore", "-i"], value: true, to: "--ignore" },
      { names: ["--ignore-file", "-I"], value: true, read: "--ignore per line (gitignore patterns, no !)" },
      { names: ["--release", "-r"], value: true, note: "debug IDs need no release" },
    ],
    build: (m) => ["sourcemap", "inject", ...m.positionals, ...m.flags, ...ignoreFileFlags(m)],
  },
  {
    words: "sourcemaps upload",
    tracker: "sourcemap upload <path>...",
    rest: true,
    flags: UPLOAD_FLAGS,
    build: (m) => uploadArgv(m.positionals, m),
  },
  {
    words: "sourcemaps resolve",
    tracker: "sourcemap explain <event-id>",
    missing: "tracker sourcemap explain <event-id> explains why an event's frames stay minified",
  },
  { words: "sourcemaps explain", tracker: "sourcemap explain <event-id>", rest: true, flags: TARGET },
  {
    words: "send-event",
    tracker: "event send -m <text> --env production",
    flags: [
      { names: ["--message", "-m"], value: true, to: "-m", join: "\n" },
      { names: ["--message-arg", "-a"], value: true, missing: "format the message before sending it" },
      { names: ["--level", "-l"], value: true, to: "-l" },
      { names: ["--tag", "-t"], value: true, to: "-t" },
      { names: ["--extra", "-e"], value: true, to: "-e" },
      { names: ["--user", "-u"], value: true, to: "-u" },
      { names: ["--release", "-r"], value: true, to: "-r" },
      { names: ["--env", "-E"], value: true, to: "--env" },
      { names: ["--dist", "-d"], value: true, to: "--dist" },
      { names: ["--fingerprint", "-f"], value: true, to: "--fingerprint" },
      { names: ["--logfile"], value: true, to: "--logfile" },
      { names: ["--with-categories"], note: "log lines are breadcrumbs as they are" },
      { names: ["--no-environ"], note: "the process environment is never sent" },
      { names: ["--platform", "-p"], value: true, note: "events are sent as platform other" },
      { names: ["--timestamp"], value: true, missing: "events are sent with the current time" },
      { names: ["--raw"], missing: "tracker event send builds the event from flags" },
    ],
    // sentry-cli (its SDK) reports environment production unless -E is given.
    build: (m) => ["event", "send", ...m.flags, ...(m.values.has("--env") ? [] : ["--env", "production"])],
  },
  { words: "send-envelope", tracker: "event send-envelope <path>", passthrough: true, rest: true },
  {
    words: "monitors run <slug>",
    tracker: "monitor run <slug> --env production -- <command>",
    flags: [
      ...TARGET,
      { names: ["--environment", "-e"], value: true, to: "--env" },
      { names: ["--schedule", "-s"], value: true, to: "--schedule" },
      { names: ["--check-in-margin"], value: true, to: "--check-in-margin" },
      { names: ["--max-runtime"], value: true, to: "--max-runtime" },
      { names: ["--timezone"], value: true, to: "--timezone" },
      { names: ["--failure-issue-threshold"], value: true, to: "--failure-issue-threshold" },
      { names: ["--recovery-threshold"], value: true, to: "--recovery-threshold" },
    ],
    // sentry-cli's check-ins say environment production unless -e is given.
    build: (m) => [
      "monitor",
      "run",
      m.params.slug as string,
      ...m.flags,
      ...(m.values.has("--environment") ? [] : ["--env", "production"]),
      "--",
      ...(m.after ?? []),
    ],
  },
  { words: "monitors list", tracker: "monitor list", flags: TARGET },
  {
    words: "login",
    tracker: "auth login",
    // With sentry-cli's --auth-token it is `auth login --token <token>` (translate.ts).
    flags: [{ names: ["--global", "-g"], note: "tracker keeps one login per service URL" }],
  },
  {
    words: "info",
    tracker: "auth status",
    flags: [
      ...TARGET,
      { names: ["--config-status-json"], read: "auth status --jq (sentry-cli's {config, auth, have_dsn})" },
      { names: ["--no-defaults"], note: "defaults are shown with their source" },
    ],
    build: (m) =>
      m.values.has("--config-status-json")
        ? ["auth", "status", "--jq", configStatusJq(m)]
        : ["auth", "status"],
    exitCode: infoExitCode,
  },
  { words: "organizations list", tracker: "org list" },
  {
    words: "projects list",
    tracker: "project list <org>",
    flags: [ORG],
    build: (m) => ["project", "list", ...(m.env.TRACKER_ORG ? [m.env.TRACKER_ORG] : [])],
  },
  {
    words: "repos list",
    tracker: "api organizations/{org}/repos/",
    flags: [ORG],
    build: () => ["api", "organizations/{org}/repos/"],
  },
  {
    words: "issues list",
    tracker: "issue list <org>/<project> -q is:<status>",
    flags: [
      ...TARGET,
      { names: ["--status", "-s"], value: true, read: "-q is:<status>" },
      { names: ["--query"], value: true, read: "-q (with the status)" },
      { names: ["--max-rows"], value: true, to: "-n" },
      { names: ["--pages"], value: true, note: "tracker pages up to -n" },
      { names: ["--all", "-a"], note: "the query selects the issues" },
      { names: ["--id", "-i"], value: true, missing: "tracker issue view <id>" },
    ],
    build: (m) => {
      const q = [first(m, "--status") && `is:${first(m, "--status")}`, first(m, "--query")].filter(Boolean);
      return ["issue", "list", ...m.flags, ...(q.length > 0 ? ["-q", q.join(" ")] : [])];
    },
  },
  ...OTHER_FORMS,
];
