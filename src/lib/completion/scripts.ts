/**
 * Shell completion scripts. Each asks `tracker __complete <words…>` for candidates: the command
 * tree, flags, enum values, and org/project slugs and recent issue IDs from the local cache. The
 * answer needs no network.
 */

/** Shells with a completion script. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
/** One of SHELLS. */
export type CompletionShell = (typeof SHELLS)[number];

const BASH = `# tracker completion for bash: eval "$(tracker completion bash)" in ~/.bashrc
_tracker_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(tracker __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _tracker_complete tracker
`;

const ZSH = `#compdef tracker
# tracker completion for zsh: eval "$(tracker completion zsh)" in ~/.zshrc (after compinit)
_tracker_complete() {
  local -a candidates
  candidates=("\${(@f)$(tracker __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _tracker_complete tracker
`;

const FISH = `# tracker completion for fish: tracker completion fish > ~/.config/fish/completions/tracker.fish
complete -c tracker -f -a '(tracker __complete -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`;

/** The completion script of a shell. */
export function completionScript(shell: CompletionShell): string {
  return shell === "bash" ? BASH : shell === "zsh" ? ZSH : FISH;
}
