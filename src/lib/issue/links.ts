/**
 * Linking tickets to an issue (API.md §22.6): which of the organization's issue-tracker
 * integrations a ticket URL belongs to, and which existing link an `unlink` argument names.
 */
import type { ExternalIssue, IssueIntegration } from "../api/issue-links.ts";
import { ConfigError, ValidationError } from "../errors.ts";

/** A ticket linked to an issue, with the integration it goes through (what `issue view` lists). */
export interface LinkedTicket {
  /** The link id (what `issue unlink` and the API's unlink take). */
  id: string;
  key: string;
  url: string;
  title: string;
  integrationId: string;
  provider: string;
}

/** Hosts that name a provider when the integration's domain does not say. */
const PROVIDER_HOSTS: readonly [RegExp, string][] = [
  [/(^|\.)github\.com$/i, "github"],
  [/(^|\.)gitlab\.com$/i, "gitlab"],
  [/\.atlassian\.net$/i, "jira"],
  [/(^|\.)linear\.app$/i, "linear"],
  [/(^|\.)dev\.azure\.com$/i, "vsts"],
];

const providerOf = (i: IssueIntegration) => (i.provider?.key ?? i.provider?.name ?? "").toLowerCase();
const label = (i: IssueIntegration) => `${i.id} (${i.provider?.name ?? providerOf(i)} ${i.name})`;

/** Every linked ticket of the integrations, in their order. */
export function linkedTickets(integrations: readonly IssueIntegration[]): LinkedTicket[] {
  return integrations.flatMap((i) =>
    (i.externalIssues ?? []).map((e: ExternalIssue) => ({
      id: String(e.id),
      key: e.displayName ?? e.key ?? String(e.id),
      url: e.url ?? "",
      title: e.title ?? "",
      integrationId: String(i.id),
      provider: i.provider?.name ?? providerOf(i),
    })),
  );
}

/**
 * The integration a ticket URL goes through: the one `--integration` names (id, name or provider),
 * the only one, or the one whose domain or provider matches the URL's host.
 */
export function pickIntegration(
  integrations: readonly IssueIntegration[],
  url: string,
  wanted?: string,
): IssueIntegration {
  if (integrations.length === 0) {
    throw new ConfigError(
      "The organization has no issue-tracker integration (GitHub, Jira, Linear…) to link tickets through.",
      "Install one in the organization's settings (Integrations), then link again.",
    );
  }
  if (wanted !== undefined) {
    const w = wanted.toLowerCase();
    const found = integrations.find(
      (i) => String(i.id) === wanted || i.name.toLowerCase() === w || providerOf(i) === w,
    );
    if (found) return found;
    throw new ValidationError(
      `No integration '${wanted}'. The organization has: ${integrations.map(label).join(", ")}.`,
      "integration",
    );
  }
  if (integrations.length === 1) return integrations[0] as IssueIntegration;
  let host = "";
  try {
    host = new URL(url).hostname;
  } catch {
    // Not a URL: only --integration can say where it goes.
  }
  const provider = PROVIDER_HOSTS.find(([re]) => re.test(host))?.[1];
  const matches = integrations.filter(
    (i) =>
      (i.domainName && host !== "" && i.domainName.toLowerCase().startsWith(host.toLowerCase())) ||
      (provider !== undefined && providerOf(i) === provider),
  );
  if (matches.length === 1) return matches[0] as IssueIntegration;
  throw new ValidationError(
    `Cannot tell which integration ${url} belongs to; pass --integration with one of: ${integrations.map(label).join(", ")}.`,
    "integration",
  );
}

/** The link an `unlink` argument names: its link id, URL or key. */
export function findLink(tickets: readonly LinkedTicket[], arg: string, issue: string): LinkedTicket {
  const found = tickets.find((t) => t.id === arg || t.url === arg || t.key === arg);
  if (found) return found;
  const have =
    tickets.length === 0
      ? "it has no linked tickets"
      : `its links: ${tickets.map((t) => `${t.id} ${t.url || t.key}`).join(", ")}`;
  throw new ValidationError(`${issue} has no link '${arg}' (${have}).`, "link");
}
