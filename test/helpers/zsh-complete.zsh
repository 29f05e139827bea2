# zsh -f zsh-complete.zsh SCRIPT OUT LINE: types LINE and Tab into an interactive zsh on a
# pseudo-terminal (zpty), with compinit and SCRIPT loaded. Every match completion adds is written
# to OUT.matches (compadd calls that only filter, with -O/-A/-D, pass through); Ctrl-X then
# writes the edited line to OUT.buffer. Used by test/helpers/shell-complete.ts.
zmodload zsh/zpty
script=$1 out=$2 line=$3
zpty z zsh -f -i
zpty -w z "PS1=''; autoload -Uz compinit; compinit -u -D; source ${(q)script}"
zpty -w z 'compadd() {
  [[ " $* " == *" -"[OAD]* ]] && { builtin compadd "$@"; return; }
  local -a __m; builtin compadd -O __m "$@"; print -rl -- $__m >> '${(q)out}'.matches
  builtin compadd "$@"
}'
zpty -w z "__dump() { print -r -- \"\$BUFFER\" > ${(q)out}.buffer; }; zle -N __dump; bindkey '^X' __dump; bindkey '^I' complete-word"
zpty -w z "zstyle ':completion:*' menu no; print ready"
zpty -r z _ '*ready*'
zpty -w -n z "$line"$'\t'$'\x18'
for i in {1..200}; do [[ -e $out.buffer ]] && break; sleep 0.05; done
zpty -d z
