#!/bin/sh
# Command gate: passes (exit 0) once the workspace's counter reaches $1; otherwise asks for a revision
# (exit 1). Its last line is the summary the run shows.
n=$(cat count 2>/dev/null || echo 0)
echo "counter is $n, the goal is $1"
[ "$n" -ge "$1" ] && exit 0
exit 1
