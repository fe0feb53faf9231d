#!/bin/sh
# The add-on's start: write the wall-tablet dashboard for the children known so far into the add-on's
# config folder (Home Assistant shows it as /addon_configs/<repository>_dziennik2mqtt), then replace
# this shell with the bridge, which reads /data/options.json and asks the Supervisor for the broker.
set -eu

if dziennik2mqtt dashboard --addon >/config/dashboard.yaml.new; then
  mv /config/dashboard.yaml.new /config/dashboard.yaml
  echo "dziennik2mqtt: dashboard written to dashboard.yaml in this add-on's folder under /addon_configs"
else
  # No child known yet (first start without ids): the next start writes it.
  rm -f /config/dashboard.yaml.new
fi

exec dziennik2mqtt run --addon
