#!/bin/sh
# Command gate: passes once the body wrote a triage note for every item of this tick.
for id in $(tr -c 'A-Za-z0-9-\n' '\n' < items.json | grep -- '-[0-9]'); do
  [ -s "triage/$id.md" ] || { echo "no triage note for $id"; exit 1; }
done
echo "every item has a triage note"
