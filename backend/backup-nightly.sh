#!/bin/sh
# The compose service "backup" (docker-compose.yml, docs/operations.md "Betrieb: backups"): once a day at
# BACKUP_AT (HH:MM in TZ, default 03:15 Europe/Berlin, a time every day has despite the
# clock changes) the app's own backup, `backup.cli.js`, into BACKUP_DIR. A failed run leaves
# its time in /tmp/backup.failed, which makes the container unhealthy until a run succeeds.
set -u
at="${BACKUP_AT:-03:15}"
case "$at" in
  [0-2][0-9]:[0-5][0-9]) ;;
  *) echo "backup: BACKUP_AT must be HH:MM, not \"$at\"" >&2; exit 1 ;;
esac
echo "backup: nightly at $at ($(date +%Z)) into ${BACKUP_DIR:-./backups}"
while :; do
  now=$(date +%s)
  next=$(date -d "$at" +%s)
  if [ "$next" -le "$now" ]; then next=$(date -d "tomorrow $at" +%s); fi
  sleep $((next - now))
  if node /app/backend/dist/backup.cli.js; then
    rm -f /tmp/backup.failed
  else
    date -u +%FT%TZ > /tmp/backup.failed
  fi
done
