#!/usr/bin/env bash
# Installs every local server that is missing (Debian packages, Go builds, Keycloak from Maven
# Central); a no-op in about a second when everything is cached.
source "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
apt_ensure curl curl
apt_ensure chromium chromium
command -v go >/dev/null || { log "Go is required to build FerretDB, MinIO and Mailpit"; exit 1; }
command -v java >/dev/null || apt_ensure java openjdk-17-jre-headless
while read -r server; do bash "$here/$server.sh" install; done < "$here/servers.list"
bash "$here/helm.sh" install
