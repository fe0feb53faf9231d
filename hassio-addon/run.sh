#!/bin/sh
# The add-on's start: write the wall-tablet dashboard for the children known so far into the add-on's
# config folder (Home Assistant shows it as /addon_configs/<repository>_dziennik2mqtt), then replace
# this shell with the bridge, which reads /data/options.json, asks the Supervisor for the broker and
# writes the dashboard again whenever the children it can name change (a first install's first poll).
set -eu

if dziennik2mqtt dashboard --addon >/config/dashboard.yaml.new; then
  mv /config/dashboard.yaml.new /config/dashboard.yaml
  echo "dziennik2mqtt: dashboard written to dashboard.yaml in this add-on's folder under /addon_configs"
else
  # No child known yet (a first start): the bridge writes it once it learns them, and logs where.
  rm -f /config/dashboard.yaml.new
  echo "dziennik2mqtt: the dashboard is written once the bridge knows the children (its log then says where)"
fi

exec dziennik2mqtt run --addon --dashboard-file /config/dashboard.yaml
