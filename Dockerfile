# syntax=docker/dockerfile:1
# The dziennik2mqtt images, from this repository's source: the stand-alone image (the default, last
# stage) and the Home Assistant add-on (`--target addon`), which the release workflow publishes.
#   docker build -t dziennik2mqtt .
#   docker run -d --name dziennik2mqtt -v "$PWD/dziennik2mqtt:/config" dziennik2mqtt
#   docker build --target addon --build-arg VERSION=0.2.0-dev --build-arg BUILD_ARCH=amd64 -t addon .
# /config holds config.yaml and, with the default data_dir ./data, the cookie jars and event memory.

# Node 26: the LTS line supported until 2029 (24 until 2028, 22 until spring 2027). Measured with
# `npm run bench` (the bin with three children, the program's own V8 flags): 80-81 MB on Node 26
# against 78-79 on 24 and 76-77 on 22, all inside the 85 MB target, so the longest support wins.
FROM node:26-alpine AS build
WORKDIR /src
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts/build.mjs scripts/bundle.mjs ./scripts/
# The bench (src/bench) is the developers' measuring tool and src/release the release's, never shipped (package.json's files leave them out too).
RUN npm ci --no-audit --no-fund && rm -rf dist/bench dist/release

# What both images run: the production dependencies and the compiled code, nothing else.
FROM node:26-alpine AS runtime
# The V8 memory settings are the program's own: `run` starts itself again with them (in place, same
# pid, on this Node), so no NODE_OPTIONS is needed here; see `npm run bench`.
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /src/dist ./dist
COPY fixtures ./fixtures
COPY config.example.yaml ./

# The Home Assistant add-on: the Supervisor starts /run.sh as root (/data, /media and the add-on's
# config folder belong to root) with Docker's init as PID 1 (`init: true` in config.yaml).
FROM runtime AS addon
ARG VERSION=0.2.0-dev
ARG BUILD_ARCH=amd64
LABEL io.hass.name="dziennik2mqtt" \
      io.hass.description="Librus school register to MQTT with Home Assistant discovery" \
      io.hass.version="${VERSION}" \
      io.hass.arch="${BUILD_ARCH}" \
      io.hass.type="addon" \
      org.opencontainers.image.title="dziennik2mqtt add-on" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.source="https://github.com/dziennik2mqtt/dziennik2mqtt"
COPY hassio-addon/run.sh /run.sh
RUN chmod a+x /run.sh /app/dist/main.js \
 && mkdir -p /usr/local/bin \
 && ln -s /app/dist/main.js /usr/local/bin/dziennik2mqtt
WORKDIR /
STOPSIGNAL SIGTERM
CMD ["/run.sh"]

# The stand-alone image.
FROM runtime
ARG VERSION=0.2.0-dev
ARG REVISION=""
LABEL org.opencontainers.image.title="dziennik2mqtt" \
      org.opencontainers.image.description="Bridge a Polish school e-register (Librus parent portal) to MQTT with Home Assistant discovery" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.source="https://github.com/dziennik2mqtt/dziennik2mqtt" \
      org.opencontainers.image.documentation="https://github.com/dziennik2mqtt/dziennik2mqtt#readme"
ENV DZIENNIK2MQTT_CONFIG=/config/config.yaml

# One volume for config and data, owned by the unprivileged user that runs the bridge. The working
# folder is the volume, so the default data_dir (./data) lands in it too.
RUN mkdir /config && chown node:node /config
VOLUME /config
WORKDIR /config
USER node

# The web server (http.port in config.yaml, default 8099): the family board, the calendar feeds and
# /health, which the health check asks. With another http.port, set DZIENNIK2MQTT_HEALTH_URL to match
# (docker run -e ...); with the web server off (http.port: 0), run with --no-healthcheck.
EXPOSE 8099
ENV DZIENNIK2MQTT_HEALTH_URL=http://127.0.0.1:8099/health
# busybox wget: exits non-zero on a 503 (the bridge is not connected to the broker) or no answer.
HEALTHCHECK --interval=60s --timeout=5s --start-period=60s --retries=3 \
  CMD wget -q -O /dev/null "$DZIENNIK2MQTT_HEALTH_URL" || exit 1

# node is PID 1: the bridge handles SIGTERM and SIGINT itself (publishes offline, saves its files,
# exits 0) and starts no child processes, so no init is needed to forward signals or reap zombies.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/dist/main.js"]
CMD ["run"]
