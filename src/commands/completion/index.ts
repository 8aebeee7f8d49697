import { buildCommand } from "@stricli/core";
import type { TrackerContext } from "../../context.ts";
import { globalFlags } from "../../lib/flags.ts";
import { describe } from "../../lib/help.ts";

/** `tracker completion bash|zsh|fish`: the shell's completion script. */
export const completionCommand = buildCommand<
  { json: boolean; verbose: boolean },
  ["bash" | "zsh" | "fish"],
  TrackerContext
>({
  loader: () => import("./completion.ts"),
  parameters: {
    flags: { ...globalFlags },
    positional: {
      kind: "tuple",
      parameters: [
        {
          placeholder: "shell",
          brief: "bash, zsh or fish",
          parse: (raw: string) => {
            if (raw === "bash" || raw === "zsh" || raw === "fish") return raw;
            throw new Error(`shell must be bash, zsh or fish, got '${raw}'`);
          },
        },
      ],
    },
  },
  docs: {
    brief: "Print a shell completion script",
    fullDescription: describe(
      "Prints the completion script of a shell: commands, flags, enum values, and organization/project slugs and recent issue IDs from the local cache (no network request while completing).",
      [
        'eval "$(tracker completion bash)"   # in ~/.bashrc',
        'eval "$(tracker completion zsh)"    # in ~/.zshrc, after compinit',
        "tracker completion fish > ~/.config/fish/completions/tracker.fish",
      ],
    ),
  },
});

/** `tracker __complete <words…>` (hidden): the candidates the scripts ask for. */
export const completeCommand = buildCommand<{ json: boolean; verbose: boolean }, string[], TrackerContext>({
  loader: () => import("./complete.ts"),
  parameters: {
    flags: { ...globalFlags },
    positional: {
      kind: "array",
      parameter: { placeholder: "word", brief: "Words typed so far", parse: String },
    },
  },
  docs: { brief: "Completion candidates (used by the completion scripts)" },
});
