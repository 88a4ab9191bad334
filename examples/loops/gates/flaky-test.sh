#!/bin/sh
# Command gate: the flaky test never passes, and it always reports the same blocker.
echo '{"blocking_issues": [{"id": "TEST-17"}]}'
exit 1
