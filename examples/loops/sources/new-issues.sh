#!/bin/sh
# Watch source: prints the issues that are new since the cursor it is given, as
# {"items": [{"id": ...}], "cursor": "..."}. Offline: the "issue tracker" is the list below, one id a
# line (a real source would ask its tracker's API); the cursor is how many were already handed out.
# The loop pins this script at admission, so it reads nothing from beside itself.
set -eu
issues="ISSUE-101
ISSUE-102"
seen=${HANKWEAVE_WATCH_CURSOR:-0}
total=$(printf '%s\n' "$issues" | grep -c .)
items=$(printf '%s\n' "$issues" | tail -n +"$((seen + 1))" | sed 's/.*/{"id": "&"}/' | paste -sd, -)
echo "{\"items\": [${items}], \"cursor\": \"${total}\"}"
