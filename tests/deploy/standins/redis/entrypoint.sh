#!/bin/sh
# As the official image does: redis-server without a config file listens on
# every interface with protected mode off.
if [ "$1" = redis-server ]; then
  shift
  set -- redis-server --protected-mode no "$@"
fi
exec "$@"
