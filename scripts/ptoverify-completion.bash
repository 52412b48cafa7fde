# bash completion for ptoverify. The subcommands and each one's options are read from the
# tool's own --help when completing, so they are always the installed version's.
_ptoverify() {
  local cur prev words cword
  _init_completion || return
  local cmd=${words[0]} sub="" i
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      -*) ;;
      *) sub=${words[i]}; break ;;
    esac
  done
  if [[ -z $sub ]]; then
    local subs
    subs=$("$cmd" --help 2>/dev/null | sed -n '/^Subcommands:/,$ s/^  \([a-z-]*\) .*/\1/p')
    COMPREPLY=($(compgen -W "$subs --help --version" -- "$cur"))
    return
  fi
  case $prev in
    --rules | --rule | explain)
      COMPREPLY=($(compgen -W "$("$cmd" rules 2>/dev/null | cut -d' ' -f1)" -- "$cur"))
      return ;;
    --format)
      COMPREPLY=($(compgen -W "text json sarif rdjson rdjsonl junit github gitcode markdown html" -- "$cur"))
      return ;;
    --filter-mode)
      COMPREPLY=($(compgen -W "added diff_context file nofilter" -- "$cur"))
      return ;;
    --arch)
      COMPREPLY=($(compgen -W "a2a3 a5" -- "$cur"))
      return ;;
  esac
  if [[ $cur == -* ]]; then
    local opts
    opts=$("$cmd" "$sub" --help 2>/dev/null | sed -n 's/^  \(-[^ ]*\).*/\1/p' | tr ',' '\n')
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  _filedir
}
complete -F _ptoverify ptoverify
