# bash completion for ptoverify. The subcommands, each one's options and check's --format names
# are read from the tool itself when completing, so they are always the installed version's.
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
      # check's formats from the binary's registry (the hidden `formats` subcommand).
      local formats="text json"
      case $sub in
        check) formats=$("$cmd" formats 2>/dev/null | cut -d' ' -f1) ;;
        audit) formats="text json markdown" ;;
      esac
      COMPREPLY=($(compgen -W "$formats" -- "$cur"))
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
