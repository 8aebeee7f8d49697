/**
 * Shell completion scripts. Each asks `tracker __complete <words…>` for candidates: the command
 * tree, flags, enum values, and org/project slugs and recent issue IDs from the local cache. The
 * answer needs no network. Candidates are data, never code: bash reads them with `mapfile` (no
 * word splitting or globbing) and quotes each with `printf %q`, zsh's `compadd` quotes what it
 * inserts (no `-Q`), fish escapes completions itself. No script evaluates a candidate. After a
 * candidate ending in `/` (`acme/`) no space is added, so the project slug can follow.
 */

/** Shells with a completion script. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
/** One of SHELLS. */
export type CompletionShell = (typeof SHELLS)[number];

const BASH = `# tracker completion for bash: eval "$(tracker completion bash)" in ~/.bashrc
_tracker_complete() {
  local c
  local -a found
  mapfile -t found < <(tracker __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  COMPREPLY=()
  for c in "\${found[@]}"; do
    [[ -n $c ]] && COMPREPLY+=("$(printf '%q' "$c")")
  done
  if [[ \${#COMPREPLY[@]} -eq 1 && \${COMPREPLY[0]} == */ ]]; then
    compopt -o nospace 2>/dev/null
  fi
  return 0
}
complete -o default -F _tracker_complete tracker
`;

const ZSH = `#compdef tracker
# tracker completion for zsh: eval "$(tracker completion zsh)" in ~/.zshrc (after compinit)
_tracker_complete() {
  emulate -L zsh
  local -a found slashed
  found=("\${(@f)$(tracker __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  found=(\${found:#})
  slashed=(\${(M)found:#*/})
  found=(\${found:#*/})
  compadd -a found
  compadd -S '' -a slashed
}
compdef _tracker_complete tracker
`;

// fish escapes the completions it inserts and adds no space after one ending in `/`.
const FISH = `# tracker completion for fish: tracker completion fish > ~/.config/fish/completions/tracker.fish
complete -c tracker -f -a '(tracker __complete -- (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`;

/** The completion script of a shell. */
export function completionScript(shell: CompletionShell): string {
  return shell === "bash" ? BASH : shell === "zsh" ? ZSH : FISH;
}
