#!/usr/bin/env bash
# The SMS catcher (infra/sms-catcher/catcher.mjs): the SMS provider's HTTP API (Termii's shape,
# POST /api/sms/send) on 127.0.0.1:SMS_CATCHER_PORT (8026), sending nothing anywhere and keeping the
# messages in memory for the tests (GET /api/messages; test/support/sms.ts), as Mailpit does for mail.
# Plain Node, nothing to install or build. Senders must give the key in secrets/sms-api-key, the one
# app.sh hands the profile and orders services as SMS_API_KEY.
source "$(dirname "$0")/lib.sh"

install_server() { :; }

start_server() {
  local key
  key=$(ensure_secret sms-api-key)
  SMS_CATCHER_HOST=127.0.0.1 SMS_CATCHER_PORT="$SMS_CATCHER_PORT" SMS_CATCHER_API_KEY="$key" \
    start_daemon sms-catcher node "$TUBER_ROOT/infra/sms-catcher/catcher.mjs"
  wait_http "http://127.0.0.1:${SMS_CATCHER_PORT}/healthz" sms-catcher 20
}

server_main sms-catcher "$@"
