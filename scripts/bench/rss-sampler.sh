#!/bin/bash
# usage: rss-sampler.sh <pattern> <outfile>: the largest VmRSS among processes matching pattern, every 0.25 s, until none is left
pat="$1"; out="$2"; : > "$out"; seen=0
while true; do
  pids=$(pgrep -f "$pat")
  if [ -z "$pids" ]; then [ $seen = 1 ] && break; sleep 0.2; continue; fi
  seen=1; m=0
  for p in $pids; do r=$(awk '/VmRSS/{print $2}' /proc/$p/status 2>/dev/null); [ -n "$r" ] && [ "$r" -gt "$m" ] && m=$r; done
  echo "$(date +%s.%N | cut -c1-14) $m" >> "$out"
  sleep 0.25
done
