#!/bin/sh
# As the official nginx image's: before nginx, the scripts in /docker-entrypoint.d in order
# (*.envsh sourced, *.sh run).
set -e
if [ "$1" = "nginx" ] || [ "$1" = "nginx-debug" ]; then
  for f in $(find /docker-entrypoint.d/ -follow -type f -print | sort -V); do
    case "$f" in
      *.envsh) if [ -x "$f" ]; then echo "$0: Sourcing $f"; . "$f"; fi ;;
      *.sh) if [ -x "$f" ]; then echo "$0: Launching $f"; "$f"; else echo "$0: Ignoring $f, not executable"; fi ;;
      *) echo "$0: Ignoring $f" ;;
    esac
  done
  echo "$0: Configuration complete; ready for start up"
fi
exec "$@"
