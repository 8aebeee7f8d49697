/** The shapes of the sentry-cli translation table (`forms.ts`) and of one translated run. */

/** One sentry-cli flag of a form and what it becomes in tracker. */
export interface CompatFlag {
  /** sentry-cli's spellings, long first (`--url-prefix`, `-u`). */
  readonly names: readonly string[];
  /** The flag takes a value (`--dist 12`, `--dist=12`). */
  readonly value?: boolean;
  /** tracker's flag; absent (with no `env`, `missing` or `into`) = accepted with no effect. */
  readonly to?: string;
  /** tracker's flag takes no value: the sentry-cli value is read and left (`--wait-for 60` → `--wait`). */
  readonly dropValue?: boolean;
  /** The form's own argv builder reads the value into this part of tracker's form (`<version>`). */
  readonly read?: string;
  /** Repeated values become one tracker value joined with this (`--ext js --ext map` → `js,map`). */
  readonly join?: string;
  /** The value is given to tracker as this environment variable instead of a flag. */
  readonly env?: string;
  /** No counterpart: the error says this (the closest tracker way). */
  readonly missing?: string;
  /** Why it has no effect (shown in `tracker help sentry-cli`). */
  readonly note?: string;
}

/** What a form's words and flags matched. */
export interface FormMatch {
  /** The `<name>` words of the form, by name. */
  readonly params: Readonly<Record<string, string>>;
  /** Further positionals, in order. */
  readonly positionals: readonly string[];
  /** tracker flags to pass, in the order given (flag, then value when it has one). */
  readonly flags: readonly string[];
  /** Every value per sentry-cli flag (keyed by its first name), for forms that build their own argv. */
  readonly values: ReadonlyMap<string, readonly string[]>;
  /** Words after `--` (the job of `monitors run`). */
  readonly after: readonly string[] | undefined;
  /** Environment variables the flags set (`-o` → TRACKER_ORG). */
  readonly env: Readonly<Record<string, string>>;
  /** The run's working directory (files named by flags, e.g. --ignore-file). */
  readonly cwd: string;
  /** The environment the run started with (before the translated variables). */
  readonly outerEnv: Readonly<Record<string, string | undefined>>;
  /** The run's clock (deploy `--time`). */
  readonly now: number;
}

/** One sentry-cli command form and its tracker counterpart. */
export interface CompatForm {
  /** sentry-cli's words; `<name>` takes one positional (`releases deploys <version> new`). */
  readonly words: string;
  /** tracker's form, as `tracker help sentry-cli` shows it. */
  readonly tracker: string;
  readonly flags?: readonly CompatFlag[];
  /** More positionals are allowed (paths); otherwise an extra one is an error. */
  readonly rest?: boolean;
  /** Every word after the form's is passed on as given, but -o/-p (tracker's command has sentry-cli's flags). */
  readonly passthrough?: boolean;
  /** tracker's argv for a match; the default is tracker's words, the params, positionals, flags. */
  readonly build?: (m: FormMatch) => string[];
  /** No counterpart: the closest tracker command, said by the error. */
  readonly missing?: string;
  /** sentry-cli's exit code for tracker's (`info` exits 1 where `auth status` exits 10). */
  readonly exitCode?: (m: FormMatch, code: number) => number;
}

/** One sentry-cli run, translated. */
export interface Translation {
  /** tracker's argv (empty with `version`). */
  readonly argv: string[];
  /** Variables added to the run's environment (token, URL, org, project, headers, log level). */
  readonly env: Record<string, string>;
  /** `--quiet`/`--silent`: nothing on stdout, errors only on stderr. */
  readonly quiet: boolean;
  /** `--allow-failure` or SENTRY_ALLOW_FAILURE: a failure is a warning and exit 0. */
  readonly allowFailure: boolean;
  /** `--version`/`-V`: print SENTRY_CLI_VERSION_LINE and nothing else. */
  readonly version: boolean;
  /** The exit code sentry-cli gives where tracker's run exits with `code` (absent: the same). */
  readonly exitCode?: (code: number) => number;
}
