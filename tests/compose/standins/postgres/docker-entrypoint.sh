#!/usr/bin/env bash
# The official postgres image's entrypoint in brief: on an empty PGDATA, initdb with
# POSTGRES_USER and POSTGRES_PASSWORD, password authentication for other hosts, the database
# POSTGRES_DB and /docker-entrypoint-initdb.d; then the server in the foreground.
set -Eeuo pipefail
if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi

if [ "$1" = 'postgres' ]; then
  if [ "$(id -u)" = '0' ]; then
    install -d -o postgres -g postgres -m 0700 "$PGDATA"
    chown -R postgres:postgres "$PGDATA"
    install -d -o postgres -g postgres -m 3777 /var/run/postgresql
    exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
  fi
  mkdir -p "$PGDATA"
  chmod 00700 "$PGDATA" 2>/dev/null || :
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_USER:=postgres}"
    : "${POSTGRES_DB:=$POSTGRES_USER}"
    if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "${POSTGRES_HOST_AUTH_METHOD:-}" != 'trust' ]; then
      echo 'Error: Database is uninitialized and superuser password is not specified (POSTGRES_PASSWORD).' >&2
      exit 1
    fi
    initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "${POSTGRES_PASSWORD:-}") \
      ${POSTGRES_INITDB_ARGS:-}
    printf '\nhost all all all %s\n' "${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}" >> "$PGDATA/pg_hba.conf"
    PGUSER="$POSTGRES_USER" pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
    if [ "$POSTGRES_DB" != 'postgres' ]; then
      psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --dbname postgres \
        --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
    fi
    for f in /docker-entrypoint-initdb.d/*; do
      case "$f" in
        *.sh) . "$f" ;;
        *.sql) psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --dbname "$POSTGRES_DB" -f "$f" ;;
      esac
    done
    pg_ctl -D "$PGDATA" -m fast -w stop
    echo 'PostgreSQL init process complete; ready for start up.'
  fi
fi
exec "$@"
