/**
 * The shell scripts `svc completion bash|zsh|fish` prints. Each asks `svc __complete WORDS...`
 * for the candidates of the word being typed (one per line, then `:files` or `:done`), so the
 * logic lives once, in complete.ts, and program names come from the running daemon.
 */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(shell: Shell, bin = 'svc'): string {
  switch (shell) {
    case 'bash':
      return `# svc completion for bash. Load it with:  source <(${bin} completion bash)
# or save it as ~/.local/share/bash-completion/completions/${bin}
_${bin}_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local IFS=$'\\n'
  local -a out
  out=($(${bin} __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  local directive="\${out[\${#out[@]}-1]}"
  unset 'out[\${#out[@]}-1]'
  if [[ "$directive" == ":files" ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=($(compgen -W "\${out[*]}" -- "$cur"))
  fi
}
complete -o default -o filenames -F _${bin}_complete ${bin}
`;
    case 'zsh':
      return `#compdef ${bin}
# svc completion for zsh. Load it with:  source <(${bin} completion zsh)  (after compinit)
# or save it as _${bin} in a folder of $fpath.
_${bin}() {
  local -a lines
  lines=("\${(@f)$(${bin} __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  local directive="\${lines[-1]}"
  lines=("\${(@)lines[1,-2]}")
  if [[ "$directive" == ":files" ]]; then
    _files
  elif (( \${#lines} )); then
    compadd -- "\${lines[@]}"
  fi
}
compdef _${bin} ${bin}
`;
    case 'fish':
      return `# svc completion for fish. Load it with:  ${bin} completion fish | source
# or save it as ~/.config/fish/completions/${bin}.fish
function __${bin}_complete
    set -l tokens (commandline -opc) (commandline -ct)
    set -l out (${bin} __complete -- $tokens[2..-1] 2>/dev/null)
    set -l directive $out[-1]
    if test "$directive" = ":files"
        __fish_complete_path (commandline -ct)
    else
        printf '%s\\n' $out[1..-2]
    end
end
complete -c ${bin} -f -a '(__${bin}_complete)'
`;
  }
}
