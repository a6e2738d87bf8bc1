#!/bin/sh
# Entry point of the CellCloud image (deploy/Containerfile). The first argument picks the process:
#   api         HTTP API + web app; jobs run in separate worker containers (IN_PROCESS_WORKER=false
#               unless set), so it needs DATABASE_URL shared with the workers
#   worker      a job worker only (no HTTP port)
#   migrate     apply database migrations and exit (Helm migration Job, compose `migrate` service)
#   standalone  API + in-process worker on the embedded database in /data (like `npm start`)
# Anything else is run as given (e.g. `node --version`).
set -e
cd /app
case "${1:-api}" in
  api)
    export IN_PROCESS_WORKER="${IN_PROCESS_WORKER:-false}"
    exec node --import tsx apps/server/src/entry/api.ts
    ;;
  worker) exec node --import tsx apps/server/src/entry/worker.ts ;;
  migrate) exec node --import tsx apps/server/src/cli/migrate.ts ;;
  standalone)
    export IN_PROCESS_WORKER=true
    exec node --import tsx apps/server/src/entry/api.ts
    ;;
  *) exec "$@" ;;
esac
