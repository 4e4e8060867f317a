#!/bin/sh
# Prints Redis ACL rules (docs/adr/0017), for infra/local/redis.sh and the redis container in
# docker-compose.yml: the default user is off; each service that has a password in
# REDIS_<SERVICE>_PASSWORD gets a user confined to its own key prefix (`<service>:`), plus reading the
# ended sign-ins (`auth:revoked-sid:`, docs/adr/0056), without
# administrative or dangerous commands (INFO aside, which clients use to see the server is ready; SCAN and RANDOMKEY out, they show other keys' names)
# and without pub/sub; REDIS_TUBER_TEST_PASSWORD adds `tuber-test` with every right, for tests.
# Passwords appear only as SHA-256 hashes.
set -eu

hash() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }

echo "user default off resetkeys resetchannels -@all"
for service in auth profile catalog media nutrition orders; do
  variable="REDIS_$(echo "$service" | tr 'a-z' 'A-Z')_PASSWORD"
  password=$(eval "printf '%s' \"\${$variable:-}\"")
  [ -n "$password" ] || continue
  # Every service may read (only read) the sign-ins the auth service records as ended (docs/adr/0056).
  ended=""
  [ "$service" = auth ] || ended=" %R~auth:revoked-sid:*"
  echo "user $service on #$(hash "$password") resetkeys ~$service:*$ended resetchannels -@all +@read +@write +@string +@hash +@set +@sortedset +@list +@keyspace +@scripting +@transaction +@connection -@admin -@dangerous -scan -randomkey +info"
done
if [ -n "${REDIS_TUBER_TEST_PASSWORD:-}" ]; then
  echo "user tuber-test on #$(hash "$REDIS_TUBER_TEST_PASSWORD") ~* &* +@all"
fi
