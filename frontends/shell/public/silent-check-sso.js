// keycloak-js's silent check-sso: hand the answer in this iframe's URL back to the shell. A file of its
// own, not an inline script: the gateway's Content-Security-Policy runs scripts from this origin only.
parent.postMessage(location.href, location.origin);
