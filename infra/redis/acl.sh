#!/bin/sh
# Prints Redis ACL rules (docs/adr/0017), for infra/local/redis.sh and the redis containers in
# docker-compose.yml: the default user is off; each service that has a password in
# REDIS_<SERVICE>_PASSWORD gets a user confined to its own key prefix (`<service>:`), plus reading the
# ended sign-ins (`auth:revoked-sid:`, docs/adr/0056; the moderation service writes them too, docs/adr/0071), without
# administrative or dangerous commands (INFO aside, which clients use to see the server is ready; SCAN and RANDOMKEY out, they show other keys' names)
# and without pub/sub; REDIS_TUBER_TEST_PASSWORD adds `tuber-test` with every right, for tests.
# Passwords appear only as SHA-256 hashes.
#   sh acl.sh             the main Redis: every service
#   sh acl.sh readmodel   the catalog's read model's own Redis (docs/adr/0061): the catalog alone, on its
#                         `catalog:` keys (no ended sign-ins live there), and `tuber-test`, whose every
#                         right includes CONFIG SET (the read-model-full test lowers maxmemory there)
set -eu

hash() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }

case ${1:-main} in
  main) services="auth profile catalog media nutrition orders moderation" ;;
  readmodel) services="catalog" ;;
  *) echo "acl.sh: unknown Redis '$1' (main or readmodel)" >&2; exit 2 ;;
esac

echo "user default off resetkeys resetchannels -@all"
for service in $services; do
  variable="REDIS_$(echo "$service" | tr 'a-z' 'A-Z')_PASSWORD"
  password=$(eval "printf '%s' \"\${$variable:-}\"")
  [ -n "$password" ] || continue
  # Every service may read (only read) the sign-ins the auth service records as ended (docs/adr/0056).
  # The moderation service also records them: a suspension ends the account's sign-ins at once (docs/adr/0071).
  ended=""
  [ "$service" = auth ] || [ "${1:-main}" = readmodel ] || ended=" %R~auth:revoked-sid:*"
  [ "$service" = moderation ] && ended=" %RW~auth:revoked-sid:*"
  echo "user $service on #$(hash "$password") resetkeys ~$service:*$ended resetchannels -@all +@read +@write +@string +@hash +@set +@sortedset +@list +@keyspace +@scripting +@transaction +@connection -@admin -@dangerous -scan -randomkey +info"
done
if [ -n "${REDIS_TUBER_TEST_PASSWORD:-}" ]; then
  echo "user tuber-test on #$(hash "$REDIS_TUBER_TEST_PASSWORD") ~* &* +@all"
fi
