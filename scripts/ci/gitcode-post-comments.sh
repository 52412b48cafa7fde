#!/usr/bin/env bash
# Posts the line comments of `ptoverify check --format gitcode:FILE` on a GitCode pull request,
# skipping every comment whose marker (`<!-- ptoverify:RULE:FINGERPRINT -->`, docs/formats.md) is
# already on it: GitCode comments cannot be edited or deleted, so a re-run after a push posts only
# what is new. Usage: gitcode-post-comments.sh COMMENTS.json
# Environment: GITCODE_REPO (owner/repo), GITCODE_PR (number), GITCODE_TOKEN, and GITCODE_API
# (default https://api.gitcode.com/api/v5). Needs curl and jq.
set -euo pipefail
comments="${1:?usage: gitcode-post-comments.sh COMMENTS.json}"
: "${GITCODE_REPO:?owner/repo}" "${GITCODE_PR:?the pull request number}" "${GITCODE_TOKEN:?an access token}"
url="${GITCODE_API:-https://api.gitcode.com/api/v5}/repos/$GITCODE_REPO/pulls/$GITCODE_PR/comments"
markers="$(mktemp)"
trap 'rm -f "$markers"' EXIT
page=1
while :; do
  listed="$(curl -sSf "$url?access_token=$GITCODE_TOKEN&page=$page&per_page=100")"
  jq -r '.[].body // empty' <<<"$listed" | grep -o '<!-- ptoverify:[^ ]* -->' >>"$markers" || true
  [ "$(jq 'length' <<<"$listed")" -ge 100 ] || break
  page=$((page + 1))
done
posted=0
skipped=0
while IFS= read -r comment; do
  marker="$(jq -r '.body' <<<"$comment" | grep -o '<!-- ptoverify:[^ ]* -->' || true)"
  if [ -n "$marker" ] && grep -qxF -- "$marker" "$markers"; then
    skipped=$((skipped + 1))
    continue
  fi
  curl -sSf -X POST "$url?access_token=$GITCODE_TOKEN" -H 'Content-Type: application/json' -d "$comment" >/dev/null
  posted=$((posted + 1))
done < <(jq -c '.[]' "$comments")
echo "gitcode: $posted comment(s) posted, $skipped already on the pull request"
