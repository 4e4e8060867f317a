# syntax=docker/dockerfile:1
# Every image of the product from one recipe (docs/adr/0008). Build context: the repository root.
#   service:   docker build --target service  --build-arg SERVICE=catalog --build-arg PORT=4003 .
#   front end: docker build --target frontend --build-arg FRONTEND=buyer .
#              (the shell also: --build-arg NGINX_CONF=frontends/shell/docker/nginx.conf)
ARG NODE_IMAGE=node:20-bookworm-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.27-alpine

# npm wants the package.json of every workspace the root lists; copying only the manifests keeps
# the install layers cached until a dependency changes.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /repo
COPY package.json package-lock.json .npmrc ./
COPY contracts/package.json contracts/
COPY services/kit/package.json services/kit/
COPY services/auth/package.json services/auth/
COPY services/profile/package.json services/profile/
COPY services/catalog/package.json services/catalog/
COPY services/media/package.json services/media/
COPY services/nutrition/package.json services/nutrition/
COPY frontends/ui/package.json frontends/ui/
COPY frontends/shell/package.json frontends/shell/
COPY frontends/landing/package.json frontends/landing/
COPY frontends/buyer/package.json frontends/buyer/
COPY frontends/farmer/package.json frontends/farmer/

FROM manifests AS dev-deps
RUN npm install --no-audit --no-fund
COPY tsconfig.base.json ./
COPY contracts contracts

# ---------- services ----------
FROM manifests AS service-deps
ARG SERVICE
RUN npm install --omit=dev --no-audit --no-fund --workspace contracts --workspace services/kit --workspace services/${SERVICE}

FROM dev-deps AS service-build
ARG SERVICE
COPY services/kit services/kit
COPY services/${SERVICE} services/${SERVICE}
RUN npx tsc -b services/${SERVICE}

FROM ${NODE_IMAGE} AS service
ARG SERVICE
ARG PORT=8080
ENV NODE_ENV=production HOST=0.0.0.0 PORT=${PORT}
WORKDIR /app
COPY --from=service-deps --chown=node:node /repo/node_modules node_modules
COPY --from=service-build --chown=node:node /repo/contracts/package.json contracts/package.json
COPY --from=service-build --chown=node:node /repo/contracts/dist contracts/dist
COPY --from=service-build --chown=node:node /repo/services/kit/package.json services/kit/package.json
COPY --from=service-build --chown=node:node /repo/services/kit/dist services/kit/dist
COPY --from=service-build --chown=node:node /repo/services/${SERVICE}/package.json services/${SERVICE}/package.json
COPY --from=service-build --chown=node:node /repo/services/${SERVICE}/dist services/${SERVICE}/dist
USER node
WORKDIR /app/services/${SERVICE}
EXPOSE ${PORT}
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server.js"]

# ---------- front ends ----------
FROM dev-deps AS frontend-build
ARG FRONTEND
COPY frontends/ui frontends/ui
COPY frontends/${FRONTEND} frontends/${FRONTEND}
RUN npm run build --workspace frontends/${FRONTEND}

FROM ${NGINX_IMAGE} AS frontend
ARG FRONTEND
ARG NGINX_CONF=frontends/ui/docker/nginx-remote.conf
COPY ${NGINX_CONF} /etc/nginx/conf.d/default.conf
# Writes the shell's remotes.json from SHELL_REMOTES when set; does nothing otherwise.
COPY --chmod=0755 frontends/shell/docker/40-tuber-remotes.sh /docker-entrypoint.d/40-tuber-remotes.sh
# Owned by the nginx user so that entrypoint may rewrite remotes.json.
COPY --from=frontend-build --chown=101:101 /repo/frontends/${FRONTEND}/dist /usr/share/nginx/html
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD wget -q -O /dev/null http://127.0.0.1:8080/ || exit 1
